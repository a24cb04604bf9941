import { sql } from "drizzle-orm";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import type { Actor, ProjectContext } from "@/lib/access/context";

/**
 * Why a membership is being set, stored with each change it makes (list_changes): the event that made
 * the pipeline re-evaluate each user (`event`, per user), a re-evaluation of the whole list (`rebuild`),
 * or a hand edit of a static list (`manual`, by the context's actor).
 */
export type MembershipCause =
  | { kind: "event"; eventByUser: Map<string, string> }
  | { kind: "rebuild" }
  | { kind: "manual" };

/** Who acted, as stored with a manual change: no secrets, just enough to name them. */
function actorOf(a: Actor): Record<string, unknown> {
  if (a.kind === "admin") return { kind: "admin", admin_id: a.adminId, email: a.email };
  if (a.kind === "api_key") return { kind: "api_key", key_id: a.keyId };
  return { kind: "system" };
}

/**
 * Sets list membership for `userIds` to `inList`, emitting `list.user.added` / `list.user.removed` only for
 * rows that actually changed (the insert's and delete's RETURNING decide, so racing evaluations never emit
 * twice). The events go through recordSystemEvents, hence through the whole pipeline. Each change is also
 * stored in list_changes with its cause, in the same transaction: explanations read what was decided.
 */
export async function applyMembership(
  ctx: ProjectContext,
  {
    list,
    add,
    remove,
    cause = { kind: "rebuild" },
  }: { list: { id: string; name: string }; add: string[]; remove: string[]; cause?: MembershipCause },
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
  const changes = [
    ...added.map((r) => ({ u: r.user_id, c: "added" })),
    ...removed.map((r) => ({ u: r.user_id, c: "removed" })),
  ].map((x) => ({ ...x, e: cause.kind === "event" ? (cause.eventByUser.get(x.u) ?? null) : null }));
  if (changes.length)
    await ctx.db.execute(sql`
      insert into list_changes (project_id, list_id, user_id, change, cause, cause_event_id, actor)
      select ${ctx.projectId}::uuid, ${list.id}::uuid, x.u, x.c, ${cause.kind}, x.e,
        ${cause.kind === "manual" ? JSON.stringify(actorOf(ctx.actor)) : null}::jsonb
      from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as x(u uuid, c text, e uuid)`);
  const data = { list_id: list.id, list_name: list.name };
  await recordSystemEvents(ctx, [
    ...added.map((r) => ({ name: "list.user.added" as const, userId: r.user_id, data })),
    ...removed.map((r) => ({ name: "list.user.removed" as const, userId: r.user_id, data })),
  ]);
  return { added: added.map((r) => r.user_id), removed: removed.map((r) => r.user_id) };
}
