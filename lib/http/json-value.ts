import { z } from "zod";

export const MAX_STRING = 1024;
export const MAX_DATA_BYTES = 32 * 1024;

/** Longest JSON.stringify output of a number: "-1.7976931348623157e+308". */
const MAX_NUMBER_TEXT = 24;

/**
 * One walk over a parsed JSON value for what PostgreSQL would refuse: NUL characters and lone
 * surrogates in text and jsonb (caught here, a database error becomes a 400 that names the field), and
 * nesting past 32 levels. It also returns an upper bound of the value's JSON.stringify size in UTF-8
 * bytes (a string unit costs at most 6 bytes, as `\u001f`; a number at most 24 characters), so the exact
 * size is only measured when the bound passes a limit: almost never, for the few hundred bytes a
 * typical `data` holds. The path of a refusal is built on the way out, only when there is one.
 */
export function inspectJson(
  value: unknown,
  depth = 0,
): { bad: { path: (string | number)[]; message: string } | null; bound: number } {
  if (depth > 32) return { bad: { path: [], message: "nested deeper than 32 levels" }, bound: 0 };
  if (typeof value === "string")
    return isStorable(value)
      ? { bad: null, bound: value.length * 6 + 2 }
      : { bad: { path: [], message: "contains a NUL character or invalid Unicode" }, bound: 0 };
  if (Array.isArray(value)) {
    let bound = 2;
    for (let i = 0; i < value.length; i++) {
      const r = inspectJson(value[i], depth + 1);
      if (r.bad) {
        r.bad.path.unshift(i);
        return r;
      }
      bound += r.bound + 1;
    }
    return { bad: null, bound };
  }
  if (value && typeof value === "object") {
    // Anything but a plain object (a Date, a class with toJSON) serializes otherwise than its keys: no bound.
    const proto = Object.getPrototypeOf(value);
    let bound = proto === Object.prototype || proto === null ? 2 : Infinity;
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      if (!isStorable(k))
        return { bad: { path: [k], message: "key contains a NUL character or invalid Unicode" }, bound: 0 };
      const r = inspectJson((value as Record<string, unknown>)[k], depth + 1);
      if (r.bad) {
        r.bad.path.unshift(k);
        return r;
      }
      bound += k.length * 6 + 3 + r.bound + 1;
    }
    return { bad: null, bound };
  }
  return { bad: null, bound: typeof value === "number" ? MAX_NUMBER_TEXT : 5 };
}

export function isStorable(s: string): boolean {
  return s.isWellFormed() && !s.includes("\u0000");
}

/** A string field: trimmed of nothing, bounded, storable. */
export const text = (max = MAX_STRING) =>
  z.string().max(max).refine(isStorable, "contains a NUL character or invalid Unicode");

/** An arbitrary JSON object (custom `data`), at most 32 KiB serialized. */
export const dataObject = (what = "data") =>
  z
    .record(z.string(), z.unknown())
    .superRefine((value, ctx) => {
      const { bad, bound } = inspectJson(value);
      if (bad) ctx.addIssue({ code: "custom", path: bad.path, message: bad.message });
      else if (bound > MAX_DATA_BYTES && Buffer.byteLength(JSON.stringify(value)) > MAX_DATA_BYTES) {
        ctx.addIssue({ code: "custom", message: `${what} is over ${MAX_DATA_BYTES / 1024} KiB serialized` });
      }
    })
    .meta({ description: `Arbitrary JSON object, at most ${MAX_DATA_BYTES / 1024} KiB serialized.` });
