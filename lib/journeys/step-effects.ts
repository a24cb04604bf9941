import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { evaluateRule } from "@/lib/lists/evaluate-rule";
import type { Rule } from "@/lib/lists/rules";
import { sendStep, sentOutcome } from "./send-step";
import type { WalkEffects } from "./walk";

/**
 * The steps' effects on the rest of Relay, in the transaction of `ctx` (the due claim's): a branch's
 * rule by the lists' own compiler, a list wait's membership, an update's merge into the user's data,
 * a send's message.
 */
export function stepEffects(ctx: ProjectContext): WalkEffects {
  return {
    async ruleHolds(entry, rule) {
      return (await evaluateRule(ctx, { rule: rule as Rule, userIds: [entry.userId] })).has(entry.userId);
    },
    async inList(entry, listId) {
      const [row] = await queryRows<{ inside: boolean }>(
        ctx.db,
        sql`select exists (select 1 from list_members where project_id = ${ctx.projectId}::uuid
          and list_id = ${listId}::uuid and user_id = ${entry.userId}::uuid) as inside`,
      );
      return row!.inside;
    },
    async mergeData(entry, data) {
      // The shallow merge an upsert's `data` makes (`data || new`), and its `user.updated` naming what changed.
      const [row] = await queryRows<{ changed: string[] | null }>(
        ctx.db,
        sql`
        with old as (select data from users where project_id = ${ctx.projectId}::uuid and id = ${entry.userId}::uuid for update),
        changed as (select array_agg('data.' || n.key order by n.key) as keys from old, jsonb_each(${JSON.stringify(data)}::jsonb) n
          where old.data -> n.key is distinct from n.value)
        update users u set data = u.data || ${JSON.stringify(data)}::jsonb, updated_at = now()
        from changed where u.project_id = ${ctx.projectId}::uuid and u.id = ${entry.userId}::uuid and changed.keys is not null
        returning changed.keys as changed`,
      );
      const changed = row?.changed ?? [];
      if (changed.length)
        await recordSystemEvents(ctx, [{ name: "user.updated", userId: entry.userId, data: { changed } }]);
      return changed;
    },
    send: (entry, step) => sendStep(ctx, { entry, step }),
    messageOutcome: (_entry, messageId) => sentOutcome(ctx, { messageId }),
  };
}
