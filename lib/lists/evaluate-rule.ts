import { sql } from "drizzle-orm";
import { compileRule, type Rule } from "./rules";
import { queryRows, rowsById, uuidArray } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";

/** The subset of `userIds` that satisfy the rule right now. */
export async function evaluateRule(ctx: ProjectContext, rule: Rule, userIds: string[]): Promise<Set<string>> {
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
