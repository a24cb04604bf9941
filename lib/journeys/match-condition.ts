import type { Condition } from "@/lib/lists/rules";

function at(data: unknown, path: string): unknown {
  let v: unknown = data;
  for (const k of path.replace(/^data\./, "").split(".")) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

function contains(a: unknown, b: unknown): boolean {
  if (Array.isArray(a))
    return Array.isArray(b) ? b.every((x) => a.some((y) => contains(y, x))) : a.some((y) => contains(y, b));
  if (a && typeof a === "object" && b && typeof b === "object" && !Array.isArray(b)) {
    return Object.entries(b).every(([k, v]) => k in a && contains((a as Record<string, unknown>)[k], v));
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The same semantics as lib/lists/rules.ts `compare`, in JavaScript, for an event's data in hand. */
export function matchesCondition(data: Record<string, unknown>, c: Condition): boolean {
  return observeCondition(data, c).passed;
}

/** What a condition read (the value at its path; null when missing) and its verdict: the pipeline's check, explained. */
export function observeCondition(
  data: Record<string, unknown>,
  c: Condition,
): { seen: unknown; missing: boolean; passed: boolean } {
  const v = at(data, c.path);
  return { seen: v ?? null, missing: v === undefined || v === null, passed: verdict(v, c) };
}

function verdict(v: unknown, c: Condition): boolean {
  switch (c.op) {
    case "exists":
      return v !== undefined && v !== null;
    case "not_exists":
      return v === undefined || v === null;
    case "eq":
      return v !== undefined && contains(v, c.value) && contains(c.value, v);
    case "neq":
      return v === undefined || !(contains(v, c.value) && contains(c.value, v));
    case "contains":
      return v !== undefined && contains(v, c.value);
    default: {
      if (v === undefined || kind(v) !== kind(c.value) || (typeof v !== "number" && typeof v !== "string"))
        return false;
      const [x, y] = [v as number | string, c.value as number | string];
      return c.op === "gt" ? x > y : c.op === "gte" ? x >= y : c.op === "lt" ? x < y : x <= y;
    }
  }
}
