import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { processSingleton } from "@/lib/process/singleton";

/** The label of every path no route serves: made-up paths share it, so they cannot grow the metrics. */
export const UNMATCHED_ROUTE = "(unmatched)";

/** Paths next.config.ts rewrites onto a route (Segment's `/v1/<type>`), as templates of their own. */
const REWRITTEN = ["/v1/[type]"];

type Segment = { kind: "static"; text: string } | { kind: "one" } | { kind: "many" } | { kind: "any" };
interface Template {
  label: string;
  segments: Segment[];
}

/**
 * The app's route templates (`/l/[token]`, `/api/admin/projects/[projectID]/users/[id]`), from the build's
 * `app-path-routes-manifest.json`, or, without a build (next dev), from the `app/` folder itself.
 */
function loadTemplates(root = process.cwd()): string[] {
  for (const manifest of [".next/app-path-routes-manifest.json", ".next/server/app-paths-manifest.json"]) {
    const file = path.join(root, manifest);
    if (!existsSync(file)) continue;
    try {
      const entries = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
      const values = manifest.includes("routes") ? Object.values(entries) : Object.keys(entries);
      return values.map((v) => v.replace(/\/(route|page)$/, "") || "/");
    } catch {}
  }
  const out: string[] = [];
  const walk = (dir: string, url: string) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) walk(path.join(dir, e.name), `${url}/${e.name}`);
      else if (/^(route|page)\.(ts|tsx|js|jsx)$/.test(e.name)) out.push(url || "/");
    }
  };
  walk(path.join(root, "app"), "");
  return out;
}

function compile(route: string): Template {
  const parts = route.split("/").filter((p) => p && !/^\(.*\)$/.test(p) && !p.startsWith("@")); // route groups and slots are not in the URL
  const segments: Segment[] = parts.map((p) =>
    /^\[\[\.\.\..+\]\]$/.test(p)
      ? { kind: "any" }
      : /^\[\.\.\..+\]$/.test(p)
        ? { kind: "many" }
        : /^\[.+\]$/.test(p)
          ? { kind: "one" }
          : { kind: "static", text: p },
  );
  const label = `/${parts
    .map((p) => p.replace(/^\[\[?\.\.\.(.+?)\]?\]$/, "*$1").replace(/^\[(.+)\]$/, ":$1"))
    .join("/")}`;
  return { label, segments };
}

/** Static segments outrank dynamic ones, which outrank catch-alls, as in Next's own routing. */
const rank = (s: Segment) => ({ static: 0, one: 1, many: 2, any: 3 })[s.kind];
function compareTemplates(a: Template, b: Template): number {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const x = a.segments[i];
    const y = b.segments[i];
    if (!x || !y) return x ? 1 : -1;
    if (rank(x) !== rank(y)) return rank(x) - rank(y);
  }
  return 0;
}

function matches(segments: Segment[], parts: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s.kind === "many") return parts.length > i;
    if (s.kind === "any") return true;
    const part = parts[i];
    if (part === undefined) return false;
    if (s.kind === "static" && s.text !== part) return false;
  }
  return parts.length === segments.length;
}

/**
 * The route template a request path is served by (`/l/:token`), or UNMATCHED_ROUTE. Metrics label requests
 * with it, never with the raw path: one label per route, whatever callers make up.
 */
export function routeTemplate(pathname: string): string {
  const templates = processSingleton("routeTemplates", () =>
    [...new Set([...loadTemplates(), ...REWRITTEN])].map(compile).sort(compareTemplates),
  );
  const parts = pathname.split("/").filter(Boolean);
  for (const t of templates) if (matches(t.segments, parts)) return t.label;
  return UNMATCHED_ROUTE;
}
