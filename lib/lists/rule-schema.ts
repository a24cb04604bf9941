import { z } from "zod";
import { text } from "@/lib/http/json-value";
import { findShapeViolation, type Children } from "@/lib/http/json-shape";

/*
 * The list rule language as zod schemas, apart from its SQL compiler (rules.ts): the console's forms
 * import these, and nothing here may pull the database driver into the browser bundle.
 */

export const OPS = ["eq", "neq", "gt", "gte", "lt", "lte", "contains", "exists", "not_exists"] as const;
const PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;

/** `<path> <op> <value>`; `exists`/`not_exists` take no value. Comparisons only hold between values of one JSON type. */
export const condition = z
  .strictObject({
    path: text(256)
      .regex(PATH, "a dotted path like plan or address.city")
      .meta({ description: "Path inside the event's `data` (a leading `data.` is optional)." }),
    op: z.enum(OPS),
    value: z.unknown().optional(),
  })
  .refine((c) => c.op === "exists" || c.op === "not_exists" || c.value !== undefined, {
    message: "value is required for this op",
    path: ["value"],
  })
  .meta({ id: "Condition" });
export type Condition = z.output<typeof condition>;

const eventRule = z
  .strictObject({
    name: text().min(1),
    scope: z
      .enum(["user", "organization"])
      .default("user")
      .meta({ description: "`organization`: count events of the user's organizations." }),
    at_least: z.number().int().min(1).max(1_000_000).default(1),
    within_days: z
      .number()
      .int()
      .min(1)
      .max(3650)
      .optional()
      .meta({ description: "Only events of the last D days count (re-evaluated periodically)." }),
    where: z.array(condition).max(10).optional(),
  })
  .meta({ id: "EventRule" });

export const USER_FIELDS = ["email", "phone", "timezone", "locale", "created_at"];
const propertyRule = z
  .strictObject({
    path: text(256)
      .regex(PATH)
      .refine(
        (p) => USER_FIELDS.includes(p) || p.startsWith("data."),
        "email, phone, timezone, locale, created_at or data.<path>",
      ),
    op: z.enum(OPS),
    value: z.unknown().optional(),
  })
  .meta({ id: "PropertyRule" });

export type Rule =
  | { all: Rule[] }
  | { any: Rule[] }
  | { event: z.output<typeof eventRule> }
  | { property: z.output<typeof propertyRule> };

const ruleTree: z.ZodType<Rule> = z.lazy(() =>
  z.union([
    z.strictObject({ all: z.array(ruleTree).min(1).max(50) }),
    z.strictObject({ any: z.array(ruleTree).min(1).max(50) }),
    z.strictObject({ event: eventRule }),
    z.strictObject({ property: propertyRule }),
  ]),
) as never;

/** Nesting of all/any groups, and rules (groups and leaves) in one tree. */
export const MAX_RULE_DEPTH = 10;
export const MAX_RULE_NODES = 200;

/** A rule's sub-rules: the members of an `all` or `any` group (anything else is a leaf for this count). */
const ruleChildren: Children = (v) => {
  if (!v || typeof v !== "object" || Array.isArray(v)) return [];
  const out: { path: (string | number)[]; value: unknown }[] = [];
  for (const key of ["all", "any"] as const) {
    const list = (v as Record<string, unknown>)[key];
    if (Array.isArray(list))
      list.forEach((value, i) => {
        out.push({ path: [key, i], value });
      });
  }
  return out;
};

/** Union failures are reported at their closest branch, like lib/http/zod-errors.ts does at the top level. */
function flatten(
  issues: readonly z.core.$ZodIssue[],
  base: PropertyKey[] = [],
): { path: PropertyKey[]; message: string }[] {
  return issues.flatMap((i) => {
    if (i.code === "invalid_union" && i.errors?.length) {
      const best = i.errors.reduce((a, b) => (b.length < a.length ? b : a));
      return flatten(best, [...base, ...i.path]);
    }
    return [{ path: [...base, ...i.path], message: i.message }];
  });
}

/**
 * A tree of all/any groups whose leaves are event rules and user property rules. Validated by the
 * recursive schema above but exposed as one opaque field, since the OpenAPI generator cannot walk a
 * recursive schema; the API reference describes the shape in words.
 */
export const rule = z
  .unknown()
  .transform((value, ctx) => {
    // Bounded before the recursive schema runs: 2,000 levels made zod overflow the stack (a 500).
    const tooBig = findShapeViolation(value, {
      maxDepth: MAX_RULE_DEPTH,
      maxNodes: MAX_RULE_NODES,
      children: ruleChildren,
    });
    if (tooBig) {
      ctx.addIssue({
        code: "custom",
        path: tooBig.path,
        message: `rules ${tooBig.message.replace("nodes", "rules")} (at most ${MAX_RULE_DEPTH} levels and ${MAX_RULE_NODES} rules)`,
      });
      return z.NEVER;
    }
    const r = ruleTree.safeParse(value);
    if (r.success) return r.data;
    for (const i of flatten(r.error.issues))
      ctx.addIssue({ code: "custom", path: i.path as (string | number)[], message: i.message });
    return z.NEVER;
  })
  .meta({
    id: "ListRule",
    description:
      "At most 10 levels of all/any groups and 200 rules in all (else 400 naming the place). `{all: [rule...]}`, `{any: [rule...]}`, `{event: {name, scope?: user|organization, at_least?: 1, within_days?, where?: [{path, op, value}]}}` or `{property: {path: email|phone|timezone|locale|created_at|data.<path>, op, value}}`.",
  });
