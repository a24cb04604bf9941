import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { compileRule, type Rule } from "./rules";

/** The subset of `userIds` that satisfy the rule right now. */
export async function evaluateRule(tx: DbOrTx, projectId: string, rule: Rule, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await tx.execute<{ id: string }>(sql`
    select u.id from users u
    where u.project_id = ${projectId}::uuid
      and u.id in (select jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb)::uuid)
      and ${compileRule(rule, projectId)}`);
  return new Set(rows.map((r) => r.id));
}
