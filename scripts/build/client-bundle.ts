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
