import { and, eq } from "drizzle-orm";
import { layouts, projects, type Layout, type TemplateVariant } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { Invalid } from "@/lib/http/errors";
import { compileMjml, composeLayout, type Format, FormatError, inlineCss } from "./formats";
import { compilePart } from "./liquid";

export interface BuildInput {
  name: string;
  channel: "email" | "sms";
  format: Format;
  html: string;
  locales: Record<string, TemplateVariant>;
  layoutId: string | null;
}

export interface Built {
  html: string;
  locales: Record<string, string>;
  layoutVersionId: string | null;
}

/**
 * The layout a template is wrapped in: the one it names (of its own format, or a 400), else the
 * project's default when that is of the template's format, else none. SMS has no html to wrap.
 */
async function layoutFor(ctx: ProjectContext, t: BuildInput): Promise<Layout | null> {
  if (t.channel !== "email") return null;
  let id = t.layoutId;
  if (!id) {
    const [p] = await ctx.db
      .select({ id: projects.defaultLayoutId })
      .from(projects)
      .where(eq(projects.id, ctx.projectId));
    id = p?.id ?? null;
    if (!id) return null;
  }
  const [layout] = await ctx.db
    .select()
    .from(layouts)
    .where(and(eq(layouts.projectId, ctx.projectId), eq(layouts.id, id)));
  if (!layout) {
    if (!t.layoutId) return null;
    throw new Invalid("No layout with this id in this project.", {
      errors: [{ path: "layout_id", message: "no such layout" }],
    });
  }
  if (layout.format !== t.format) {
    if (!t.layoutId) return null;
    throw new Invalid(`The layout "${layout.name}" is ${layout.format}, the template ${t.format}.`, {
      errors: [{ path: "layout_id", message: `a ${t.format} layout` }],
    });
  }
  return layout;
}

/**
 * A template's html as it will be rendered: inside its layout, then compiled from MJML or CSS-inlined,
 * once per save of the template or its layout (never per message). Every html part (the default and
 * each locale's) must come out as valid Liquid. A failure is a 400 naming the template, the part and,
 * for MJML, the line (of the template's own text, or of its layout's).
 */
export async function buildTemplate(ctx: ProjectContext, t: BuildInput): Promise<Built> {
  const layout = await layoutFor(ctx, t);
  const parts: [string, string][] = [["html", t.html]];
  for (const [locale, v] of Object.entries(t.locales))
    if (v.html !== undefined) parts.push([`locales.${locale}.html`, v.html]);
  const out: Record<string, string> = {};
  for (const [path, html] of parts) out[path] = await buildPart(t, layout, path, html);
  const locales: Record<string, string> = {};
  for (const [locale, v] of Object.entries(t.locales))
    if (v.html !== undefined) locales[locale] = out[`locales.${locale}.html`]!;
  return { html: out.html!, locales, layoutVersionId: layout?.versionId ?? null };
}

async function buildPart(t: BuildInput, layout: Layout | null, path: string, html: string): Promise<string> {
  if (!html) return "";
  const composed = layout ? composeLayout(layout.body, html) : { source: html, firstLine: 1 };
  let built: string;
  try {
    built = t.format === "mjml" ? await compileMjml(composed.source) : inlineCss(composed.source);
  } catch (err) {
    if (!(err instanceof FormatError)) throw err;
    const message = errorPlace(err, composed.firstLine, html, layout);
    throw new Invalid(`The template "${t.name}"'s ${path} does not compile: ${message}.`, {
      errors: [{ path, message }],
    });
  }
  compilePart(built, path);
  return built;
}

/** `line N: …` of the template's own text when the error is there, else of the layout's. */
function errorPlace(err: FormatError, firstLine: number, html: string, layout: Layout | null): string {
  if (err.line === null) return err.message;
  if (!layout) return `line ${err.line}: ${err.message}`;
  const lines = html.split("\n").length;
  if (err.line >= firstLine && err.line < firstLine + lines) return `line ${err.line - firstLine + 1}: ${err.message}`;
  const inLayout = err.line < firstLine ? err.line : err.line - lines + 1;
  return `line ${inLayout} of the layout "${layout.name}": ${err.message}`;
}
