import { type Context, type Emitter, type Liquid, Output, type Template, toValue, toValueSync, Value } from "liquidjs";

/*
 * liquidjs renders every `{{ … }}` through four or five nested generators (value, expression, token,
 * property access, filter), which is most of a message's rendering time. The outputs templates are made
 * of are nearly always a variable path or a literal with filters whose arguments are the same, so those
 * get a plain function doing what the generators do, step for step: the same scope lookup
 * (`findScope`, `readProperty`: own properties only, `size`/`first`/`last`, drops), the same filters
 * called the same way (so their memory accounting stands), the same emitter. Anything else (a computed
 * key `a[b]`, a range, an operator) keeps liquidjs's own render. The render limit is still checked by
 * liquidjs before each output, and an error is still wrapped by it with the output's position.
 */

type Token = { content?: unknown; variable?: unknown; props?: Token[] };
/** Context's lookups (findScope is private in liquidjs's types, public in its code). */
interface Lookups {
  findScope(key: string): unknown;
  readProperty(obj: unknown, key: string | number): unknown;
}
type FilterArg = Token | [string, Token];
interface FilterImpl {
  handler: (this: unknown, ...args: unknown[]) => unknown;
  args: FilterArg[];
  token: unknown;
  liquid: Liquid;
}

/** A reader for a literal or a plain path (`user.data['plan']`, `items[0]`), or null when it is neither. */
function readerOf(token: Token | undefined): ((ctx: Context) => unknown) | null {
  if (!token) return null;
  if ("content" in token) {
    const value = token.content;
    return () => value;
  }
  if (token.variable !== undefined || !Array.isArray(token.props) || !token.props.length) return null;
  if (!token.props.every((p) => p && "content" in p)) return null;
  const keys = token.props.map((p) => p.content as string | number);
  const first = keys[0] as string;
  return (ctx) => {
    const c = ctx as unknown as Lookups;
    let scope: unknown = c.findScope(first);
    for (const key of keys) scope = toValueSync(c.readProperty(scope, key));
    return scope;
  };
}

/** The plain evaluation of a value (`x.y | f: a`), or null when it is not of the simple kind. */
function fastValue(v: unknown): ((ctx: Context) => unknown) | null {
  const value = v as { initial?: { postfix?: Token[] }; filters?: FilterImpl[] } | undefined;
  // These are liquidjs's internals: if a release reshapes them, every output keeps liquidjs's own render.
  if (!value?.initial || !Array.isArray(value.initial.postfix) || !Array.isArray(value.filters)) return null;
  if (value.initial.postfix.length !== 1) return null;
  if (!value.filters.every((f) => typeof f?.handler === "function" && Array.isArray(f.args))) return null;
  const initial = readerOf(value.initial.postfix[0]);
  if (!initial) return null;
  const filters: { f: FilterImpl; args: { key: string | null; read: (ctx: Context) => unknown }[] }[] = [];
  for (const f of value.filters) {
    const args: { key: string | null; read: (ctx: Context) => unknown }[] = [];
    for (const arg of f.args) {
      const read = readerOf(Array.isArray(arg) ? arg[1] : arg);
      if (!read) return null;
      args.push({ key: Array.isArray(arg) ? arg[0] : null, read });
    }
    filters.push({ f, args });
  }
  return (ctx) => {
    let val = initial(ctx);
    for (const { f, args } of filters) {
      const argv: unknown[] = [val];
      for (const a of args) argv.push(a.key === null ? a.read(ctx) : [a.key, a.read(ctx)]);
      val = toValueSync(f.handler.apply({ context: ctx, token: f.token, liquid: f.liquid }, argv));
    }
    return val;
  };
}

/** The plain render of one output, or null when its value is not of the simple kind. */
function fastRender(output: Output): ((ctx: Context, emitter: Emitter) => void) | null {
  const value = fastValue(output.value);
  return value && ((ctx, emitter) => emitter.write(toValue(value(ctx))));
}

/**
 * Gives the simple outputs of parsed templates, at any depth (inside `for`, `if`, `case`, `capture`…),
 * the plain render, and simple conditions the plain evaluation. Only for an engine without strictVariables or lenientIf, whose lookups differ.
 */
export function speedUpOutputs(templates: Template[], engine: Liquid): Template[] {
  if (engine.options.strictVariables || engine.options.lenientIf) return templates;
  const visit = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const t of list as Record<string, unknown>[]) {
      if (!t || typeof t !== "object") continue;
      if (t instanceof Output) {
        const render = fastRender(t);
        if (render) Object.defineProperty(t, "render", { value: render });
        continue;
      }
      visit(t.templates);
      visit(t.elseTemplates);
      // `if`, `unless` and `case` branches: a simple condition is evaluated plainly too.
      if (Array.isArray(t.branches))
        for (const b of t.branches as { value?: unknown; templates?: unknown }[]) {
          if (b.value instanceof Value) {
            const value = fastValue(b.value);
            if (value) Object.defineProperty(b.value, "value", { value });
          }
          visit(b.templates);
        }
    }
  };
  visit(templates);
  return templates;
}
