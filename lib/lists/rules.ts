import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { text } from "@/lib/http/json-value";

const OPS = ["eq", "neq", "gt", "gte", "lt", "lte", "contains", "exists", "not_exists"] as const;
const PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;

/** `<path> <op> <value>`; `exists`/`not_exists` take no value. Comparisons only hold between values of one JSON type. */
export const condition = z
  .strictObject({
    path: text(256).regex(PATH, "a dotted path like plan or address.city").meta({ description: "Path inside the event's `data` (a leading `data.` is optional)." }),
    op: z.enum(OPS),
    value: z.unknown().optional(),
  })
  .refine((c) => c.op === "exists" || c.op === "not_exists" || c.value !== undefined, { message: "value is required for this op", path: ["value"] })
  .meta({ id: "Condition" });
export type Condition = z.output<typeof condition>;

const eventRule = z
  .strictObject({
    name: text().min(1),
    scope: z.enum(["user", "organization"]).default("user").meta({ description: "`organization`: count events of the user's organizations." }),
    at_least: z.number().int().min(1).max(1_000_000).default(1),
    within_days: z.number().int().min(1).max(3650).optional().meta({ description: "Only events of the last D days count (re-evaluated periodically)." }),
    where: z.array(condition).max(10).optional(),
  })
  .meta({ id: "EventRule" });

const USER_FIELDS = ["email", "phone", "timezone", "locale", "created_at"];
const propertyRule = z
  .strictObject({
    path: text(256).regex(PATH).refine((p) => USER_FIELDS.includes(p) || p.startsWith("data."), "email, phone, timezone, locale, created_at or data.<path>"),
    op: z.enum(OPS),
    value: z.unknown().optional(),
  })
  .meta({ id: "PropertyRule" });

export type Rule = { all: Rule[] } | { any: Rule[] } | { event: z.output<typeof eventRule> } | { property: z.output<typeof propertyRule> };

const ruleTree: z.ZodType<Rule> = z.lazy(() =>
  z.union([
    z.strictObject({ all: z.array(ruleTree).min(1).max(50) }),
    z.strictObject({ any: z.array(ruleTree).min(1).max(50) }),
    z.strictObject({ event: eventRule }),
    z.strictObject({ property: propertyRule }),
  ]),
) as never;

/** Union failures are reported at their closest branch, like lib/http/zod-errors.ts does at the top level. */
function flatten(issues: readonly z.core.$ZodIssue[], base: PropertyKey[] = []): { path: PropertyKey[]; message: string }[] {
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
    const r = ruleTree.safeParse(value);
    if (r.success) return r.data;
    for (const i of flatten(r.error.issues)) ctx.addIssue({ code: "custom", path: i.path as (string | number)[], message: i.message });
    return z.NEVER;
  })
  .meta({
    id: "ListRule",
    description:
      "`{all: [rule...]}`, `{any: [rule...]}`, `{event: {name, scope?: user|organization, at_least?: 1, within_days?, where?: [{path, op, value}]}}` or `{property: {path: email|phone|timezone|locale|created_at|data.<path>, op, value}}`.",
  });

function pathArray(path: string): string {
  return `{${path.replace(/^data\./, "").split(".").join(",")}}`;
}

/** SQL for `value <op> literal` on a jsonb expression. */
export function compare(value: SQL, op: Condition["op"], literal: unknown): SQL {
  const v = sql`${JSON.stringify(literal ?? null)}::jsonb`;
  switch (op) {
    case "exists": return sql`(${value} is not null and ${value} <> 'null'::jsonb)`;
    case "not_exists": return sql`(${value} is null or ${value} = 'null'::jsonb)`;
    case "eq": return sql`(${value} = ${v})`;
    case "neq": return sql`(${value} is distinct from ${v})`;
    case "contains": return sql`(${value} @> ${v})`;
    default: {
      const o = sql.raw({ gt: ">", gte: ">=", lt: "<", lte: "<=" }[op]);
      return sql`(jsonb_typeof(${value}) = jsonb_typeof(${v}) and ${value} ${o} ${v})`;
    }
  }
}

/** Collects what a rule listens to: event names (and user.* when it reads properties), and whether it has a time window. */
export function ruleFacts(r: Rule): { eventNames: string[]; windowed: boolean } {
  const names = new Set<string>();
  let windowed = false;
  const walk = (x: Rule) => {
    if ("all" in x) x.all.forEach(walk);
    else if ("any" in x) x.any.forEach(walk);
    else if ("event" in x) {
      names.add(x.event.name);
      if (x.event.scope === "organization") names.add("organization.user.added").add("organization.user.removed");
      if (x.event.within_days) windowed = true;
    } else names.add("user.created").add("user.updated");
  };
  walk(r);
  return { eventNames: [...names].sort(), windowed };
}

/** Compiles a rule to a boolean SQL expression over the users row aliased `u`. */
export function compileRule(r: Rule, projectId: string): SQL {
  if ("all" in r) return sql`(${sql.join(r.all.map((x) => compileRule(x, projectId)), sql` and `)})`;
  if ("any" in r) return sql`(${sql.join(r.any.map((x) => compileRule(x, projectId)), sql` or `)})`;
  if ("property" in r) {
    const p = r.property;
    const value = p.path.startsWith("data.") ? sql`(u.data #> ${pathArray(p.path)}::text[])` : sql`to_jsonb(u.${sql.identifier(p.path)})`;
    return compare(value, p.op, p.value);
  }
  const e = r.event;
  const target =
    e.scope === "organization"
      ? sql`e.organization_id in (select m.organization_id from organization_members m where m.project_id = u.project_id and m.user_id = u.id)`
      : sql`e.user_id = u.id`;
  const parts: SQL[] = [sql`e.project_id = ${projectId}::uuid`, target, sql`e.name = ${e.name}`];
  if (e.within_days) parts.push(sql`e.occurred_at > now() - make_interval(days => ${e.within_days}::int)`);
  for (const c of e.where ?? []) parts.push(compare(sql`(e.data #> ${pathArray(c.path)}::text[])`, c.op, c.value));
  return sql`((select count(*) from (select 1 from events e where ${sql.join(parts, sql` and `)} limit ${e.at_least}) hits) >= ${e.at_least})`;
}
