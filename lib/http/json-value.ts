import { z } from "zod";

export const MAX_STRING = 1024;
export const MAX_DATA_BYTES = 32 * 1024;

/**
 * PostgreSQL refuses NUL characters and lone surrogates in text and jsonb; catching them here turns what
 * would be a database error into a 400 that names the field.
 */
function findBadString(value: unknown, path: (string | number)[], depth = 0): { path: (string | number)[]; message: string } | null {
  if (depth > 32) return { path, message: "nested deeper than 32 levels" };
  if (typeof value === "string") return isStorable(value) ? null : { path, message: "contains a NUL character or invalid Unicode" };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = findBadString(value[i], [...path, i], depth + 1);
      if (bad) return bad;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (!isStorable(k)) return { path: [...path, k], message: "key contains a NUL character or invalid Unicode" };
      const bad = findBadString(v, [...path, k], depth + 1);
      if (bad) return bad;
    }
  }
  return null;
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
      const bad = findBadString(value, []);
      if (bad) ctx.addIssue({ code: "custom", path: bad.path, message: bad.message });
      else if (Buffer.byteLength(JSON.stringify(value)) > MAX_DATA_BYTES) {
        ctx.addIssue({ code: "custom", message: `${what} is over ${MAX_DATA_BYTES / 1024} KiB serialized` });
      }
    })
    .meta({ description: `Arbitrary JSON object, at most ${MAX_DATA_BYTES / 1024} KiB serialized.` });
