import type { Condition } from "@/lib/lists/rule-schema";

export type Op = Condition["op"];
export type ValueKind = "string" | "number" | "boolean" | "date" | "array" | "object" | "null";

export const OP_LABELS: Record<Op, string> = {
  eq: "is",
  neq: "is not",
  gt: "greater than",
  gte: "at least",
  lt: "less than",
  lte: "at most",
  contains: "contains",
  exists: "is set",
  not_exists: "is not set",
};

/** Operators that make sense for a property's discovered type (comparisons hold only within one JSON type). */
export function opsFor(kind: ValueKind | undefined): Op[] {
  switch (kind) {
    case "number":
    case "date":
      return ["eq", "neq", "gt", "gte", "lt", "lte", "exists", "not_exists"];
    case "boolean":
      return ["eq", "neq", "exists", "not_exists"];
    case "array":
    case "object":
      return ["contains", "exists", "not_exists"];
    case "string":
      return ["eq", "neq", "gt", "lt", "exists", "not_exists"];
    default:
      return ["eq", "neq", "gt", "gte", "lt", "lte", "contains", "exists", "not_exists"];
  }
}

/** The most specific type seen for a path: a number that was once null is still a number. */
export function mainKind(types: string[] | undefined): ValueKind | undefined {
  const t = (types ?? []).filter((x) => x !== "null");
  return (t[0] as ValueKind | undefined) ?? (types?.length ? "null" : undefined);
}

export const needsValue = (op: Op) => op !== "exists" && op !== "not_exists";

/** The input's text as the JSON value the API compares with. */
export function parseValue(text: string, kind: ValueKind | undefined): unknown {
  if (kind === "number") return text.trim() === "" || Number.isNaN(Number(text)) ? text : Number(text);
  if (kind === "boolean") return text === "true" ? true : text === "false" ? false : text;
  if (kind === "array" || kind === "object") {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export function showValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
