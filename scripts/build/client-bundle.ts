import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * What betrays drizzle in minified browser code: the package name, or the `Symbol.for("drizzle:…")`
 * entity keys every drizzle table and enum carries (minifiers keep string literals). A chunk holding
 * them ships our table definitions, internal table names included, to every console visitor.
 */
const DRIZZLE = /drizzle-orm|drizzle:[A-Za-z]+/;

/** The client chunks under a Next build directory that contain drizzle code, with the first match. */
export async function chunksWithDrizzle(distDir: string): Promise<{ file: string; match: string }[]> {
  const root = path.join(distDir, "static");
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const found: { file: string; match: string }[] = [];
  for (const e of entries) {
    if (!e.isFile() || !e.name.endsWith(".js")) continue;
    const file = path.join(e.parentPath, e.name);
    const m = DRIZZLE.exec(await readFile(file, "utf8"));
    if (m) found.push({ file: path.relative(distDir, file), match: m[0] });
  }
  return found;
}

/**
 * What betrays GrapesJS (the visual template editor, 2.3 MB of minified script) in a chunk:
 * grapesjs-mjml's message keys, and the prefix of the attributes GrapesJS reads components' types from.
 */
export const GRAPESJS = /grapesjs-mjml\.|data-gjs-/;

/**
 * The chunks a page of the app router loads when it opens (its client-reference manifest's
 * `entryJSFiles`, for the page and every layout above it) that match `pattern`, with the pages that
 * load them. A chunk loaded later (`next/dynamic`, `import()`) is in no entry list.
 */
export async function entryChunksMatching(
  distDir: string,
  pattern: RegExp,
): Promise<{ file: string; match: string; pages: string[] }[]> {
  const root = path.join(distDir, "server", "app");
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const pagesOf = new Map<string, string[]>();
  for (const e of entries) {
    if (!e.isFile() || !e.name.endsWith("_client-reference-manifest.js")) continue;
    const text = await readFile(path.join(e.parentPath, e.name), "utf8");
    const json = text.slice(text.indexOf("= {") + 2).replace(/;\s*$/, "");
    const manifest = JSON.parse(json) as { entryJSFiles?: Record<string, string[]> };
    const page = path.relative(root, path.join(e.parentPath, e.name.replace("_client-reference-manifest.js", "")));
    for (const file of new Set(Object.values(manifest.entryJSFiles ?? {}).flat())) {
      const list = pagesOf.get(file) ?? [];
      list.push(page);
      pagesOf.set(file, list);
    }
  }
  const found: { file: string; match: string; pages: string[] }[] = [];
  for (const [file, pages] of pagesOf) {
    const source = await readFile(path.join(distDir, file), "utf8").catch(() => "");
    const m = pattern.exec(source);
    if (m) found.push({ file, match: m[0], pages: pages.sort() });
  }
  return found;
}
