import { sql } from "drizzle-orm";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Sets list membership for `userIds` to `inList`, emitting `list.user.added` / `list.user.removed` only for
 * rows that actually changed (the insert's and delete's RETURNING decide, so racing evaluations never emit
 * twice). The events go through recordSystemEvents, hence through the whole pipeline.
 */
export async function applyMembership(
  ctx: ProjectContext,
  list: { id: string; name: string },
  add: string[],
  remove: string[],
) {
  const added = add.length
    ? await ctx.db.execute<{ user_id: string }>(sql`
        insert into list_members (project_id, list_id, user_id)
        select ${ctx.projectId}::uuid, ${list.id}::uuid, u::uuid from jsonb_array_elements_text(${JSON.stringify(add)}::jsonb) u
        where exists (select 1 from users where project_id = ${ctx.projectId}::uuid and id = u::uuid)
        on conflict do nothing returning user_id`)
    : [];
  // The rows by one key probe per user, deleted by TID: `user_id in (ids)` was planned as a scan of the
  // list's members when the statistics were stale (lib/db/probe-plans.int.test.ts). A row another
  // transaction deletes meanwhile is skipped, and its deleter reports it.
  const removed = remove.length
    ? await ctx.db.execute<{ user_id: string }>(sql`
        delete from list_members where ctid = any(array(
          select m.ctid from jsonb_array_elements_text(${JSON.stringify(remove)}::jsonb) as r(u)
          cross join lateral (select ctid from list_members m
            where m.project_id = ${ctx.projectId}::uuid and m.list_id = ${list.id}::uuid and m.user_id = r.u::uuid offset 0) m))
        returning user_id`)
    : [];
  const data = { list_id: list.id, list_name: list.name };
  await recordSystemEvents(ctx, [
    ...added.map((r) => ({ name: "list.user.added" as const, userId: r.user_id, data })),
    ...removed.map((r) => ({ name: "list.user.removed" as const, userId: r.user_id, data })),
  ]);
  return { added: added.map((r) => r.user_id), removed: removed.map((r) => r.user_id) };
}
