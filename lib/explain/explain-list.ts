import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/sql";
import { explainRule } from "@/lib/lists/evaluate-rule";
import { findList } from "@/lib/lists/get-list";
import type { Rule } from "@/lib/lists/rules";
import type { ProjectContext } from "@/lib/access/context";
import { findUserId } from "./find-user";
import type { ListExplanation } from "./schemas";

const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);

/**
 * Why a user is or is not in a list: the stored membership, the latest stored change (when, added or
 * removed, and why: the causing event, a rebuild, or who edited a static list) and, for a dynamic list,
 * the rules evaluated now by the pipeline's own evaluator with every node's verdict and readings. Each
 * read is a key probe or a bounded index range, so it costs the same whatever the user's history.
 */
export async function explainList(
  ctx: ProjectContext,
  { listId, userId }: { listId: string; userId: string },
): Promise<ListExplanation> {
  const list = await findList(ctx, { id: listId });
  await findUserId(ctx, userId);
  const [state] = await queryRows<{
    added_at: string | null;
    change: "added" | "removed" | null;
    cause: "event" | "rebuild" | "manual" | null;
    cause_event_id: string | null;
    cause_event_name: string | null;
    actor: Record<string, unknown> | null;
    at: string | null;
  }>(
    ctx.db,
    sql`
    select
      (select m.added_at::text from list_members m where m.project_id = ${ctx.projectId}::uuid and m.list_id = ${list.id}::uuid and m.user_id = ${userId}::uuid) as added_at,
      c.change, c.cause, c.cause_event_id, c.actor, c.at::text as at,
      (select e.name from events e where e.project_id = ${ctx.projectId}::uuid and e.id = c.cause_event_id) as cause_event_name
    from (select 1) one
    left join lateral (
      select * from list_changes c
      where c.project_id = ${ctx.projectId}::uuid and c.list_id = ${list.id}::uuid and c.user_id = ${userId}::uuid
      order by c.at desc, c.id desc limit 1) c on true`,
  );
  const rules =
    list.kind === "dynamic" && list.rules ? await explainRule(ctx, { rule: list.rules as Rule, userId }) : null;
  return {
    list: { id: list.id, name: list.name, kind: list.kind },
    user_id: userId,
    member: state?.added_at != null,
    member_since: iso(state?.added_at ?? null),
    last_change: state?.change
      ? {
          change: state.change,
          at: iso(state.at)!,
          cause: state.cause!,
          event_id: state.cause_event_id,
          event_name: state.cause_event_name,
          by: state.actor,
        }
      : null,
    matches: rules ? rules.matches : null,
    rules: rules ? rules.tree : null,
  };
}
