export type PropertyType = "string" | "number" | "boolean" | "null" | "object" | "array" | "date";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function typeOf(value: unknown): PropertyType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "string") {
    // The pattern only for what could be a date (at least YYYY-MM-DD, a digit first): most strings are not.
    const c = value.charCodeAt(0);
    return value.length >= 10 && c >= 48 && c <= 57 && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))
      ? "date"
      : "string";
  }
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  return "object";
}

/**
 * Calls `visit(path, type)` for every value in an event's data: nested objects as `address.city`, array
 * elements as `items[]` (and `items[].sku` for objects inside arrays). A path may be visited several
 * times (once per array element). The plain definition of the paths: schemaDeltaOf
 * (lib/pipeline/discover-schema.ts) walks them its own, faster way, and its test holds it to this one.
 */
export function walkPaths(data: Record<string, unknown>, visit: (path: string, type: PropertyType) => void): void {
  const walk = (value: unknown, path: string, depth: number) => {
    const type = typeOf(value);
    if (path) visit(path, type);
    if (depth > 16) return;
    if (type === "object") {
      for (const k in value as Record<string, unknown>)
        walk((value as Record<string, unknown>)[k], path ? `${path}.${k}` : k, depth + 1);
    } else if (type === "array") {
      for (const v of value as unknown[]) walk(v, `${path}[]`, depth + 1);
    }
  };
  walk(data, "", 0);
}
