import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** Source files by repository-relative path (forward slashes). */
export type SourceTree = Map<string, string>;

export interface Import {
  /** The specifier as written. */
  spec: string;
  /** `import type … from` / `export type … from`: erased at compile time, so never bundled. */
  typeOnly: boolean;
}

// Static imports and re-exports (`import x from`, `import "x"`, `export { y } from`) and dynamic `import("x")`.
const STATIC = /(?:^|[\n;])\s*(import|export)(\s+type)?\s+(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

export function importsOf(source: string): Import[] {
  const found: Import[] = [];
  for (const m of source.matchAll(STATIC)) found.push({ spec: m[3]!, typeOnly: Boolean(m[2]) });
  for (const m of source.matchAll(DYNAMIC)) found.push({ spec: m[1]!, typeOnly: false });
  return found;
}

const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

/** The repository file an import names, or the bare package name when it leaves the repository. */
export function resolveImport(tree: SourceTree, from: string, spec: string): { file: string } | { pkg: string } {
  let base: string | null = null;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  if (base === null) return { pkg: spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]! };
  for (const ext of EXTENSIONS) if (tree.has(base + ext)) return { file: base + ext };
  return { file: base };
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const isClient = (source: string) => /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*["']use client["']/.test(source);
/** A tagged `sql` template or a raw statement handed to a driver: the two ways SQL gets written here. */
const SQL_TEXT = /\bsql\s*`|\.(?:execute|unsafe)\s*\(/;
const SQL_PACKAGES = new Set(["drizzle-orm", "postgres", "pg"]);

/**
 * An exported function whose first parameter is a database handle (`db`/`tx`) followed by `projectId`
 * (directly, or after a `kind`): the old verb signature. The type of the handle may be anything without a
 * comma; generics on the function are allowed.
 */
const OLD_VERB_SIGNATURE =
  /\bexport\s+(?:async\s+)?(?:function\s*\*?\s*(\w+)\s*(?:<[^>]*>)?\s*|const\s+(\w+)\s*=\s*(?:async\s*)?(?:function\s*)?)\(\s*(?:db|tx)\s*\??\s*(?::[^,;{}]*?)?,\s*(?:kind\s*:[^,;{}]*?,\s*)?projectId\b/g;

/** Names the exported lib/ functions that take `(db, projectId, …)` instead of `(ctx: ProjectContext, …)`. */
export function oldVerbSignatures(tree: SourceTree): string[] {
  const out: string[] = [];
  for (const [file, source] of tree) {
    // context.ts builds the context from a handle and a project id (`systemContext`): the one rightful exception.
    if (!file.startsWith("lib/") || isTest(file) || file === "lib/access/context.ts") continue;
    for (const m of source.matchAll(OLD_VERB_SIGNATURE))
      out.push(
        `${file}: ${m[1] ?? m[2]} takes (db, projectId, …); a project-scoped verb takes (ctx: ProjectContext, …)`,
      );
  }
  return out;
}

/**
 * The plumbing under the verbs, whose functions take a database handle by design: `lib/db/` (transactions,
 * retries, raw-row typing: `withTransaction(db, fn)`), `lib/queue/` (`enqueue(tx, …)` joins the caller's
 * transaction, as pg-boss's own adapters do) and `lib/outbound/` (the leased claim-send-record runner and
 * the due loops, which take a domain's callbacks). Every other folder of `lib/` is a domain folder.
 */
export const PLUMBING_FOLDERS = ["lib/db/", "lib/queue/", "lib/outbound/"];

/** A non-test file of a domain folder of `lib/` (any folder but the plumbing): its exported verbs take `(ctx, input)`. */
function inVerbFolder(file: string): boolean {
  return /^lib\/[^/]+\//.test(file) && !PLUMBING_FOLDERS.some((f) => file.startsWith(f)) && !isTest(file);
}

const ASYNC_EXPORT = /\bexport\s+async\s+function\s+(\w+)\s*(?:<[^>]*>)?\s*\(/g;

/** The parameters of the list opening at `from` (just past its `(`), split at top-level commas. */
function parameterList(source: string, from: number): string[] {
  const params: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = from; i < source.length; i++) {
    const c = source[i]!;
    if (depth === 0 && c === ")") break;
    if ("([{<".includes(c)) depth++;
    else if (")]}>".includes(c) && !(c === ">" && source[i - 1] === "=")) depth--;
    if (depth === 0 && c === ",") {
      params.push(current);
      current = "";
    } else current += c;
  }
  if (current.trim()) params.push(current);
  return params.map((p) => p.trim()).filter(Boolean);
}

/**
 * Names the exported async verbs of the domain folders that take more than `(ctx, input)`: one shape to
 * learn, and no two arguments of one type to swap.
 */
export function extraVerbParameters(tree: SourceTree): string[] {
  const out: string[] = [];
  for (const [file, source] of tree) {
    if (!inVerbFolder(file)) continue;
    for (const m of source.matchAll(ASYNC_EXPORT)) {
      const params = parameterList(source, m.index! + m[0].length);
      if (params[0]?.startsWith("ctx") && params.length > 2)
        out.push(`${file}: ${m[1]} takes ${params.length} parameters; a verb takes (ctx, input)`);
    }
  }
  return out;
}

const EXPORTED_FUNCTION = /\bexport\s+(?:async\s+)?function\s*\*?\s*(\w+)\s*(?:<[^>]*>)?\s*\(/g;

/**
 * Names the exported functions of the domain folders whose first parameter is a raw database handle
 * (`db`/`tx`): a verb that runs before any project is known (sign-in lookups, signed links, invitations,
 * project creation, sweeps over every project) takes an `AppContext` instead, in the same `(ctx, input)`
 * shape. context.ts, which builds contexts from a handle, is the one exception.
 */
export function rawHandleVerbs(tree: SourceTree): string[] {
  const out: string[] = [];
  for (const [file, source] of tree) {
    if (!inVerbFolder(file) || file === "lib/access/context.ts") continue;
    for (const m of source.matchAll(EXPORTED_FUNCTION)) {
      const [first] = parameterList(source, m.index! + m[0].length);
      if (first && /^(?:db|tx)\b/.test(first))
        out.push(
          `${file}: ${m[1]} takes a database handle; a verb takes (ctx, input), an AppContext before a project is known`,
        );
    }
  }
  return out;
}

/**
 * The layering rules of the lib/, worker/, db/ and components/ READMEs, as violations found in a tree:
 * - `lib/` never imports `app/` or `worker/`;
 * - `db/` never imports `lib/`, `app/` or `worker/`;
 * - `worker/` writes no SQL: no sql template or raw execute, no import of drizzle-orm, postgres or db/schema
 *   (it may hold a database handle from db/client.ts to pass to verbs);
 * - a client component ("use client") and everything it imports, transitively, reach neither `db/` nor
 *   drizzle-orm/postgres (type-only imports are erased and exempt; a db/ module importing nothing, such as
 *   db/roles.ts, is a plain constant and allowed).
 * - an exported lib/ verb takes `(ctx: ProjectContext, …)`, not `(db, projectId, …)` (`oldVerbSignatures`);
 *   in the domain folders, exactly `(ctx, input)` (`extraVerbParameters`), and never a raw database handle in
 *   place of the context (`rawHandleVerbs`).
 * Tests are exempt from the first three and the last (they set up and inspect databases); they are never bundled.
 */
export function architectureViolations(tree: SourceTree): string[] {
  const out: string[] = [];
  for (const [file, source] of tree) {
    if (isTest(file)) continue;
    for (const { spec } of importsOf(source)) {
      const target = resolveImport(tree, file, spec);
      const where = "file" in target ? target.file : target.pkg;
      if (file.startsWith("lib/") && /^(app|worker)\//.test(where)) out.push(`${file}: lib/ imports ${where}`);
      if (file.startsWith("db/") && /^(lib|app|worker)\//.test(where)) out.push(`${file}: db/ imports ${where}`);
      if (file.startsWith("worker/") && (SQL_PACKAGES.has(where) || where.startsWith("db/schema")))
        out.push(`${file}: worker/ imports ${where}`);
    }
    if (file.startsWith("worker/") && SQL_TEXT.test(source)) out.push(`${file}: worker/ contains SQL`);
  }
  for (const [file, source] of tree) if (isClient(source)) out.push(...clientLeaks(tree, file));
  out.push(...oldVerbSignatures(tree));
  out.push(...extraVerbParameters(tree));
  out.push(...rawHandleVerbs(tree));
  out.push(...fixturesInLib(tree));
  return out;
}

/**
 * The folders of lib/ that lib/README.md's map does not name (a row naming `` `folder/` ``): a newcomer finds
 * a concept's code from the map, so a new folder gets its line there.
 */
export function unmappedFolders(tree: SourceTree, libReadme: string): string[] {
  const folders = new Set([...tree.keys()].flatMap((f) => /^lib\/([^/]+)\//.exec(f)?.[1] ?? []));
  return [...folders]
    .filter((folder) => !libReadme.includes(`| \`${folder}/\``))
    .sort()
    .map((folder) => `lib/${folder}/ has no line in lib/README.md's map`);
}

/** Test set-up shared by test files lives in test/fixtures/, not beside the production code of lib/. */
export function fixturesInLib(tree: SourceTree): string[] {
  return [...tree.keys()]
    .filter((f) => f.startsWith("lib/") && /-fixtures\.tsx?$/.test(f))
    .map((f) => `${f}: test fixtures belong in test/fixtures/`);
}

/**
 * A db/ module other than a plain constant: db/roles.ts imports nothing, exists so browser code can
 * know the roles without drizzle, and is the one kind of db/ file a client component may reach.
 */
function isDatabaseModule(tree: SourceTree, file: string): boolean {
  return file.startsWith("db/") && (!tree.has(file) || importsOf(tree.get(file)!).length > 0);
}

/** Walks a client component's runtime imports; names the first path to db/ or a database package. */
function clientLeaks(tree: SourceTree, entry: string): string[] {
  const seen = new Set([entry]);
  const queue: string[][] = [[entry]];
  const out: string[] = [];
  while (queue.length) {
    const trail = queue.shift()!;
    const file = trail[trail.length - 1]!;
    for (const { spec, typeOnly } of importsOf(tree.get(file) ?? "")) {
      if (typeOnly) continue;
      const target = resolveImport(tree, file, spec);
      const bad =
        "pkg" in target
          ? SQL_PACKAGES.has(target.pkg) && target.pkg
          : isDatabaseModule(tree, target.file) && target.file;
      if (bad) out.push(`${entry}: client component reaches ${bad} via ${[...trail, bad].join(" -> ")}`);
      else if ("file" in target && tree.has(target.file) && !seen.has(target.file)) {
        seen.add(target.file);
        queue.push([...trail, target.file]);
      }
    }
  }
  return out;
}

/** The repository's TypeScript sources under the layered folders. */
export async function readSourceTree(
  root: string,
  folders = ["app", "components", "lib", "worker", "db", "scripts"],
): Promise<SourceTree> {
  const tree: SourceTree = new Map();
  for (const folder of folders) {
    const entries = await readdir(path.join(root, folder), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isFile() || !/\.tsx?$/.test(e.name)) continue;
      const abs = path.join(e.parentPath, e.name);
      tree.set(path.relative(root, abs).split(path.sep).join("/"), await readFile(abs, "utf8"));
    }
  }
  return tree;
}
