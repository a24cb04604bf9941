import { sql, type SQL } from "drizzle-orm";
import { compileRule, type Rule, type RuleObserver } from "./rules";
import { queryRows, rowsById, uuidArray } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";
import { annotateRule, type ExplainedRule, type NodeReading } from "./explained-rule";

/** The subset of `userIds` that satisfy the rule right now. */
export async function evaluateRule(
  ctx: ProjectContext,
  { rule, userIds }: { rule: Rule; userIds: string[] },
): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  // The users by key probe (rowsById): `id in (ids)` was planned as a scan of the project's users when
  // the statistics were stale (lib/db/probe-plans.int.test.ts).
  const rows = await queryRows<{ id: string }>(
    ctx.db,
    sql`
    select u.id from ${rowsById("users", ctx.projectId, uuidArray([...new Set(userIds)]), "u")}
    where ${compileRule(rule, ctx.projectId)}`,
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * The same evaluation for one user, with every node's verdict and what each leaf read (the explain
 * endpoints). The expressions are the ones evaluateRule runs (compileRule with an observer), selected one
 * row per node for the user found by the same key probe. Null when the user is not in the project.
 */
export async function explainRule(
  ctx: ProjectContext,
  { rule, userId }: { rule: Rule; userId: string },
): Promise<ExplainedRule | null> {
  const rows = await queryRows<NodeReading & { matches: boolean }>(ctx.db, explainRuleSql(ctx, rule, userId));
  if (!rows.length) return null;
  return annotateRule(rule, new Map(rows.map((r) => [r.path, r])));
}

/** explainRule's one statement (the plan tests measure it). */
export function explainRuleSql(ctx: ProjectContext, rule: Rule, userId: string): SQL {
  const nodes: SQL[] = [];
  const observer: RuleObserver = {
    node: (path, result, observed) => {
      nodes.push(sql`(${path}::text, coalesce(${result}, false), ${observed ?? sql`null::jsonb`})`);
    },
  };
  const root = compileRule(rule, ctx.projectId, observer);
  // The verdict once per user (OFFSET 0 keeps it a subquery of its own), not once per node row.
  return sql`
    select n.path, n.result, n.observed, m.matches
    from ${rowsById("users", ctx.projectId, uuidArray([userId]), "u")}
    cross join lateral (select coalesce(${root}, false) as matches offset 0) m
    cross join lateral (values ${sql.join(nodes, sql`, `)}) as n(path, result, observed)`;
}
