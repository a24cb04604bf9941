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

/**
 * Records, for every node of a rule as it is compiled, the node's own boolean SQL and (for leaves) a jsonb
 * SQL of what it read: the explain endpoints select these beside the verdict. The pipeline passes none.
 */
export interface RuleObserver {
  node(path: string, result: SQL, observed: SQL | null): void;
}

/** The event rows an event rule counts (without `where` when `withWhere` is false), for the users row `u`. */
function eventFilter(e: Extract<Rule, { event: unknown }>["event"], projectId: string, withWhere: boolean): SQL {
  const target =
    e.scope === "organization"
      ? sql`e.organization_id in (select m.organization_id from organization_members m where m.project_id = u.project_id and m.user_id = u.id)`
      : sql`e.user_id = u.id`;
  const parts: SQL[] = [sql`e.project_id = ${projectId}::uuid`, target, sql`e.name = ${e.name}`];
  if (e.within_days) parts.push(sql`e.occurred_at > now() - make_interval(days => ${e.within_days}::int)`);
  if (withWhere)
    for (const c of e.where ?? []) parts.push(compare(sql`(e.data #> ${pathArray(c.path)}::text[])`, c.op, c.value));
  return sql.join(parts, sql` and `);
}

/**
 * How many matching events there are, counted no further than `at_least`: the read stops once the rule
 * holds. A user's events are read newest first: `events` is partitioned, and an unordered LIMIT over its
 * partitions is planned from each partition's cheapest way to read its whole range (a bitmap scan of
 * every entry in the window), while an ordered one merges backward index scans that stop after the
 * rows needed (lib/explain/explain-plans.int.test.ts). An organization's events stay unordered: they
 * come from several organizations, so no index gives them in time order.
 */
function eventCount(e: Extract<Rule, { event: unknown }>["event"], filter: SQL): SQL {
  const order = e.scope === "organization" ? sql`` : sql` order by e.occurred_at desc`;
  return sql`(select count(*)::int from (select 1 from events e where ${filter}${order} limit ${e.at_least}) hits)`;
}

/** The value a property rule reads from the users row `u` (jsonb; SQL null when missing). */
function propertyValue(path: string): SQL {
  return path.startsWith("data.")
    ? sql`(u.data #> ${pathArray(path)}::text[])`
    : sql`to_jsonb(u.${sql.identifier(path)})`;
}

/** How many recent candidate events an explanation shows per event rule, with each `where` clause's value. */
export const OBSERVED_SAMPLES = 3;

/** What an event rule read: the (capped) counts, the window's bounds and the latest candidates with their `where` values. */
function observeEvent(e: Extract<Rule, { event: unknown }>["event"], projectId: string): SQL {
  const where = e.where ?? [];
  const clauses = where.length
    ? sql`jsonb_build_array(${sql.join(
        where.map((c) => {
          const v = sql`(e.data #> ${pathArray(c.path)}::text[])`;
          return sql`jsonb_build_object('value', ${v}, 'passed', coalesce(${compare(v, c.op, c.value)}, false))`;
        }),
        sql`, `,
      )})`
    : sql`'[]'::jsonb`;
  return sql`jsonb_build_object(
    'found', ${eventCount(e, eventFilter(e, projectId, true))},
    'found_ignoring_where', ${where.length ? eventCount(e, eventFilter(e, projectId, false)) : sql`null`},
    'window_from', ${e.within_days ? sql`to_jsonb(now() - make_interval(days => ${e.within_days}::int))` : sql`null`},
    'window_to', ${e.within_days ? sql`to_jsonb(now())` : sql`null`},
    'samples', (select coalesce(jsonb_agg(s order by s.occurred_at desc, s.id desc), '[]'::jsonb) from (
      select e.id, e.occurred_at, e.organization_id, ${clauses} as clauses from events e
      -- By time alone, so the index range is read backward and stops after the samples (no sort).
      where ${eventFilter(e, projectId, false)} order by e.occurred_at desc limit ${OBSERVED_SAMPLES}) s))`;
}

/**
 * Compiles a rule to a boolean SQL expression over the users row aliased `u`. The pipeline's decision
 * (lib/lists/evaluate-rule.ts) and every explanation use this one compiler; an `observer` is told each
 * node's expression and, for leaves, what the leaf read.
 */
export function compileRule(r: Rule, projectId: string, observer?: RuleObserver, path = "$"): SQL {
  let result: SQL;
  let observed: SQL | null = null;
  if ("all" in r || "any" in r) {
    const [list, glue] = "all" in r ? [r.all, sql` and `] : [r.any, sql` or `];
    const key = "all" in r ? "all" : "any";
    result = sql`(${sql.join(
      list.map((x, i) => compileRule(x, projectId, observer, `${path}.${key}[${i}]`)),
      glue,
    )})`;
  } else if ("property" in r) {
    const p = r.property;
    const value = propertyValue(p.path);
    result = compare(value, p.op, p.value);
    if (observer) observed = sql`jsonb_build_object('value', ${value})`;
  } else {
    const e = r.event;
    result = sql`(${eventCount(e, eventFilter(e, projectId, true))} >= ${e.at_least})`;
    if (observer) observed = observeEvent(e, projectId);
  }
  observer?.node(path, result, observed);
  return result;
}
