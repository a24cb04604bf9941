import juice from "juice";
import mjml2html from "mjml";

export type Format = "html" | "mjml";

/** Where a compile error is: a line of the source given, and what is wrong there. */
export class FormatError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

/**
 * MJML to HTML, strictly validated. `ignoreIncludes`: an `<mj-include>` would read the server's files.
 * Liquid in text and attribute values passes through as text, to be rendered per message afterwards.
 * The first error is reported with its line (mjml's own message names a file path; ours does not).
 */
export async function compileMjml(source: string): Promise<string> {
  let out: Awaited<ReturnType<typeof mjml2html>>;
  try {
    out = await mjml2html(source, { validationLevel: "strict", ignoreIncludes: true, keepComments: false });
  } catch (err) {
    const first = (err as { errors?: { line?: number; message?: string }[] }).errors?.[0];
    if (first) throw new FormatError(first.message ?? "invalid MJML", first.line ?? null);
    throw new FormatError(firstLine(err), null);
  }
  if (!/<html[\s>]/i.test(out.html)) throw new FormatError("not an <mjml> document", 1);
  return out.html;
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0]!.slice(0, 300);
}

// Liquid's tags survive the parse as opaque blocks (`{{ … }}` is one of juice's own): a setting of the
// juice module, not of a call.
juice.codeBlocks.LIQUID = { start: "{%", end: "%}" };

/**
 * `<style>` rules copied onto the elements they match, for the mail clients that drop `<style>`. The
 * blocks stay too (media queries and clients that read them, and markup a snippet adds at render).
 */
export function inlineCss(html: string): string {
  if (!/<style[\s>]/i.test(html)) return html;
  return juice(html, { removeStyleTags: false, preserveImportant: true });
}

const CONTENT = /\{\{-?\s*content\s*-?\}\}/g;

/** A layout body has exactly one `{{ content }}`: the place its templates go. */
export function contentMarks(body: string): number {
  return body.match(CONTENT)?.length ?? 0;
}

/**
 * A template's html inside its layout: the layout's text around it, composed before compiling so an
 * MJML layout and template are one document. Returns the composed text and the line the template
 * starts on (to name a template's own line in an error).
 */
export function composeLayout(layoutBody: string, html: string): { source: string; firstLine: number } {
  const at = layoutBody.search(CONTENT);
  const before = layoutBody.slice(0, at);
  const after = layoutBody.slice(at).replace(CONTENT, "");
  return { source: before + html + after, firstLine: before.split("\n").length };
}

const RENDER_TAG = /\{%-?\s*(render|include|layout)\s+(?:(['"])([^'"\n]{0,200})\2)?/g;

/**
 * The snippet names a Liquid source renders (`{% render 'footer' %}`), and the tags that name none by a
 * literal (a variable): those are refused, since what they would load cannot be checked at save.
 */
export function snippetRefs(source: string): { names: string[]; dynamic: string[]; others: string[] } {
  const names = new Set<string>();
  const dynamic: string[] = [];
  const others: string[] = [];
  // Inside `{% liquid %}` the tags have no delimiters of their own: refused rather than parsed twice.
  const inLiquidTag = /\{%-?\s*liquid\b[^%]*\b(render|include|layout)\b/.exec(source);
  if (inLiquidTag) others.push(`{% liquid … ${inLiquidTag[1]} %}`);
  for (const m of source.matchAll(RENDER_TAG)) {
    if (m[1] === "layout") others.push(m[0]);
    else if (m[3] === undefined) dynamic.push(m[0]);
    else names.add(m[3]);
  }
  return { names: [...names], dynamic, others };
}
