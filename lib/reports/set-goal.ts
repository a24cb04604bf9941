import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows, uuidArray } from "@/lib/db/sql";
import type { Goal } from "./schemas";

/** Sets (or, with null, removes) the goal of a broadcast or journey, in the caller's transaction. */
export async function setGoal(
  ctx: ProjectContext,
  input: { ownerKind: "broadcast" | "journey"; ownerId: string; goal: Goal | null },
): Promise<void> {
  const { ownerKind, ownerId, goal } = input;
  if (!goal) {
    await ctx.db.execute(sql`delete from campaign_goals where project_id = ${ctx.projectId}::uuid
      and owner_kind = ${ownerKind} and owner_id = ${ownerId}::uuid`);
    return;
  }
  await ctx.db.execute(sql`
    insert into campaign_goals (project_id, owner_kind, owner_id, event, condition, within, value_path)
    values (${ctx.projectId}::uuid, ${ownerKind}, ${ownerId}::uuid, ${goal.event},
      ${goal.condition ? JSON.stringify(goal.condition) : null}::jsonb, ${goal.within}, ${goal.value_path ?? null})
    on conflict (project_id, owner_kind, owner_id) do update set event = excluded.event,
      condition = excluded.condition, within = excluded.within, value_path = excluded.value_path`);
}

/** The goals of some broadcasts or journeys, by owner id, as the API shows them. */
export async function goalsOf(
  ctx: ProjectContext,
  input: { ownerKind: "broadcast" | "journey"; ownerIds: string[] },
): Promise<Map<string, Goal>> {
  if (!input.ownerIds.length) return new Map();
  const rows = await queryRows<{ owner_id: string; goal: Goal }>(
    ctx.db,
    sql`select owner_id, json_strip_nulls(json_build_object('event', event, 'condition', condition, 'within', within,
        'value_path', value_path)) as goal
      from campaign_goals where project_id = ${ctx.projectId}::uuid and owner_kind = ${input.ownerKind}
        and owner_id = any(${uuidArray(input.ownerIds)})`,
  );
  return new Map(rows.map((r) => [r.owner_id, r.goal]));
}
