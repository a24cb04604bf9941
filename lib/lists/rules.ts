import { sql, type SQL } from "drizzle-orm";
import type { Condition, Rule } from "./rule-schema";

export { condition, rule, OPS, USER_FIELDS, type Condition, type Rule } from "./rule-schema";

function pathArray(path: string): string {
  return `{${path
    .replace(/^data\./, "")
    .split(".")
    .join(",")}}`;
}

/** SQL for `value <op> literal` on a jsonb expression. */
export function compare(value: SQL, op: Condition["op"], literal: unknown): SQL {
  const v = sql`${JSON.stringify(literal ?? null)}::jsonb`;
  switch (op) {
    case "exists":
      return sql`(${value} is not null and ${value} <> 'null'::jsonb)`;
    case "not_exists":
      return sql`(${value} is null or ${value} = 'null'::jsonb)`;
    case "eq":
      return sql`(${value} = ${v})`;
    case "neq":
      return sql`(${value} is distinct from ${v})`;
    case "contains":
      return sql`(${value} @> ${v})`;
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
  if ("all" in r)
    return sql`(${sql.join(
      r.all.map((x) => compileRule(x, projectId)),
      sql` and `,
    )})`;
  if ("any" in r)
    return sql`(${sql.join(
      r.any.map((x) => compileRule(x, projectId)),
      sql` or `,
    )})`;
  if ("property" in r) {
    const p = r.property;
    const value = p.path.startsWith("data.")
      ? sql`(u.data #> ${pathArray(p.path)}::text[])`
      : sql`to_jsonb(u.${sql.identifier(p.path)})`;
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
