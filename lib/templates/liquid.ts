import { type FS, Liquid, type Template } from "liquidjs";
import { Invalid } from "@/lib/http/errors";
import { speedUpOutputs } from "./liquid-outputs";

/** The largest template part accepted (characters): also liquidjs's parse limit. */
export const MAX_TEMPLATE_CHARS = 100_000;
/** The largest rendered part: a longer output fails the message rather than reach a provider. */
export const MAX_OUTPUT_CHARS = 1_000_000;

/**
 * One engine for every template: lookups see own properties only (no `constructor`, no prototype), an
 * unknown filter is a save-time error, and each render is bounded in time (200 ms) and in what liquidjs
 * allocates (ranges, strings, arrays: 10 M units), so a hostile loop or a doubling string stops with an
 * error instead of holding the worker. No file system: `include` and `render` find nothing here, and
 * in a snippet engine (snippetEngines) only the project's snippets.
 */
const options = {
  ownPropertyOnly: true,
  strictFilters: true,
  parseLimit: MAX_TEMPLATE_CHARS,
  renderLimit: 200,
  memoryLimit: 10_000_000,
  templates: {},
  relativeReference: false,
};
export const liquid = new Liquid(options);
/** For `html`: every output is HTML-escaped (a user's data cannot add markup); `| raw` opts out. */
const liquidHtml = new Liquid({ ...options, outputEscape: "escape" });

/**
 * The project's snippets as a render batch loaded them: `key` names exactly these bodies (their
 * version ids), so engines and parsed templates are shared by every message rendering the same set.
 */
export interface SnippetSet {
  key: string;
  bodies: Map<string, string>;
}

/**
 * liquidjs's file system over one snippet set: a name is looked up in a Map (never a plain object, so
 * `constructor` or `__proto__` name nothing) and nothing else is ever read.
 */
class SnippetFs implements FS {
  readonly sep = "/";
  constructor(private readonly bodies: Map<string, string>) {}
  existsSync(file: string) {
    return this.bodies.has(file);
  }
  async exists(file: string) {
    return this.existsSync(file);
  }
  readFileSync(file: string) {
    const body = this.bodies.get(file);
    if (body === undefined) throw new Error(`no snippet named "${file}" in this project`);
    return body;
  }
  async readFile(file: string) {
    return this.readFileSync(file);
  }
  resolve(_dir: string, file: string) {
    return file;
  }
  containsSync() {
    return true;
  }
  async contains() {
    return true;
  }
}

const engines = new Map<string, { text: Liquid; html: Liquid }>();

/**
 * The engines for one snippet set (text and escaping html), made once per set: their parsed partials
 * are cached inside them, which is safe because a set's bodies never change under its key.
 */
function snippetEngines(set: SnippetSet): { text: Liquid; html: Liquid } {
  let e = engines.get(set.key);
  if (!e) {
    const fs = new SnippetFs(set.bodies);
    const own = { ...options, templates: undefined, fs, root: ["."], extname: "", cache: 200 };
    e = { text: new Liquid(own), html: new Liquid({ ...own, outputEscape: "escape" }) };
    if (engines.size >= 200) engines.clear();
    engines.set(set.key, e);
  }
  return e;
}

/** liquidjs's message when a render runs past `renderLimit`. */
const TIME_LIMIT = "template render limit exceeded";

export class TemplateError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
    readonly column: number | null,
  ) {
    super(message);
  }

  /**
   * The render ran out of time. The limit is wall-clock, so a starved worker can hit it with a sound
   * template: unlike a syntax, memory or output error this may pass on another try.
   */
  get timedOut(): boolean {
    return this.message.includes(TIME_LIMIT);
  }
}

function positionOf(err: unknown): { line: number | null; column: number | null } {
  const pos = (err as { token?: { getPosition?: () => [number, number] } }).token?.getPosition?.();
  return { line: pos?.[0] ?? null, column: pos?.[1] ?? null };
}

/** The first line of liquidjs's message, without its own ", line:…" suffix (we report the position apart). */
function cleanMessage(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  return raw.split("\n")[0]!.replace(/, line:\d+, col:\d+$/, "");
}

/** Parses one part, or throws a 400 naming the field, line and column. */
export function compilePart(source: string, path: string): Template[] {
  try {
    return liquid.parse(source);
  } catch (err) {
    const { line, column } = positionOf(err);
    const where = line === null ? "" : ` at line ${line}, column ${column}`;
    const message = `${cleanMessage(err)}${where}`;
    throw new Invalid(`The template's ${path} does not compile: ${message}.`, {
      errors: [{ path, message }],
    });
  }
}

// Apart per engine and per kind of key, so a template whose text happens to spell another's key never
// gets its compiled parts.
const caches = new Map<string, Map<string, Template[]>>();

/**
 * Parsed once per engine and key (a template's id, version, variant and part when the caller has them,
 * else the source text itself): templates are re-read, not re-parsed, for every message.
 */
function parsed(engine: Liquid, kind: string, key: string, source: string): Template[] {
  let cache = caches.get(kind);
  if (!cache) {
    if (caches.size >= 400) caches.clear();
    caches.set(kind, (cache = new Map()));
  }
  let t = cache.get(key);
  if (!t) {
    t = speedUpOutputs(engine.parse(source), engine);
    if (cache.size > 2_000) cache.clear();
    cache.set(key, t);
  }
  return t;
}

/**
 * Renders one part synchronously (no async filters are registered); a limit hit is a TemplateError.
 * `key` names this exact source (it must change whenever the source does: the template's updated_at).
 */
export function renderPart(
  source: string,
  scope: object,
  opts: { html?: boolean; key?: string; snippets?: SnippetSet } = {},
): string {
  if (!source) return "";
  const own = opts.snippets?.bodies.size ? snippetEngines(opts.snippets) : null;
  const engine = own ? (opts.html ? own.html : own.text) : opts.html ? liquidHtml : liquid;
  let out: string;
  try {
    const kind = `${own ? `${opts.snippets!.key}/` : ""}${opts.html ? "html" : "text"}/${opts.key ? "key" : "source"}`;
    out = engine.renderSync(parsed(engine, kind, opts.key ?? source, source), scope) as string;
  } catch (err) {
    const { line, column } = positionOf(err);
    throw new TemplateError(cleanMessage(err), line, column);
  }
  if (out.length > MAX_OUTPUT_CHARS)
    throw new TemplateError(`output longer than ${MAX_OUTPUT_CHARS} characters`, null, null);
  return out;
}
