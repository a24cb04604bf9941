import { sql } from "drizzle-orm";
import { compileRule, type Rule } from "./rules";
import type { ProjectContext } from "@/lib/access/context";

/** The subset of `userIds` that satisfy the rule right now. */
export async function evaluateRule(ctx: ProjectContext, rule: Rule, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await ctx.db.execute<{ id: string }>(sql`
    select u.id from users u
    where u.project_id = ${ctx.projectId}::uuid
      and u.id in (select jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb)::uuid)
      and ${compileRule(rule, ctx.projectId)}`);
  return new Set(rows.map((r) => r.id));
}
