/**
 * camelCase in, snake_case on the wire, camelCase back. Only our own field names are converted: the
 * contents of free-form objects (`data`, `metadata`, `match`) are the caller's and pass through untouched,
 * so `data: { firstName }` stays `firstName` (unlike a blanket recursive rename). In explanations, a stored
 * `rule` and the values compared and seen (`value`, `seen`) are shown as they are stored.
 */
const OPAQUE = new Set(["data", "metadata", "match", "rule", "value", "seen"]);

export type SnakeKey<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeKey<T>}`
  : S;
export type CamelKey<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelKey<T>>}` : S;

/** The camelCase view of a wire type; records with free keys (`{ [key: string]: unknown }`) are left as they are. */
export type Camelize<T> = T extends readonly (infer U)[]
  ? Camelize<U>[]
  : T extends object
    ? string extends keyof T
      ? T
      : {
          [K in keyof T as K extends string ? CamelKey<K> : K]: K extends
            | "data"
            | "metadata"
            | "match"
            | "rule"
            | "value"
            | "seen"
            ? T[K]
            : Camelize<T[K]>;
        }
    : T;

const toSnake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const toCamel = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function convert(value: unknown, rename: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => convert(v, rename));
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    out[rename(k)] = OPAQUE.has(k) ? v : convert(v, rename);
  }
  return out;
}

export const toWire = (value: unknown) => convert(value, toSnake);
export const fromWire = <T>(value: unknown) => convert(value, toCamel) as T;
