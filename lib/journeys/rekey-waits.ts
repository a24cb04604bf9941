import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import type { Step } from "./step-schema";
import { waitTarget } from "./walk";

type WaitStep = Step & { kind: "wait" };

/** What a wait step waits for, apart from its timeout and where it leads. */
const awaitedOf = (s: WaitStep) => JSON.stringify({ event: s.event ?? null, list: s.list ?? null });

/**
 * An edit of the steps, in its transaction: entries waiting at a kept wait step whose event (name,
 * condition, `same_as`) or list changed wait for the new one from now on. Their match key is made again
 * from their own context (a new `same_as` takes the entering event's value at the new key), so the event
 * the step now names releases them and the old one no longer does. The timeout they were given stays: as
 * with a changed delay, a changed timeout applies to those who reach the step afterwards. Entries waiting at
 * a wait that became another kind of step run that step at once. Returns how many entries were changed.
 */
export async function rekeyWaits(
  ctx: ProjectContext,
  { journeyId, before, after }: { journeyId: string; before: Step[]; after: Step[] },
): Promise<number> {
  const old = new Map(before.filter((s): s is WaitStep => s.kind === "wait").map((s) => [s.key, awaitedOf(s)]));
  const changed = after.filter(
    (s): s is WaitStep => s.kind === "wait" && old.has(s.key) && old.get(s.key) !== awaitedOf(s),
  );
  let n = 0;
  // A wait turned into another kind under the same key: no event would release its waiting entries any
  // more (the probes follow the steps), so they run the step as it is now, due at once.
  const rekinded = after.filter((s) => s.kind !== "wait" && old.has(s.key)).map((s) => s.key);
  if (rekinded.length)
    n += (
      await ctx.db.execute(sql`
      update journey_entries e set state = 'active', wake_at = now(), step_since = now(), waiting_for = null,
        wait_event = null, wait_key = null
      where e.project_id = ${ctx.projectId}::uuid and e.journey_id = ${journeyId}::uuid
        and e.step_key in (select jsonb_array_elements_text(${JSON.stringify(rekinded)}::jsonb))
        and e.state = 'waiting' and e.wait_event is not null`)
    ).count;
  for (const step of changed) {
    // Waiting for an event or a list (not a send's message): the rows an event would release.
    const rows = await queryRows<{
      id: string;
      user_id: string;
      context: Record<string, unknown>;
      waiting_for: Record<string, unknown> | null;
    }>(
      ctx.db,
      sql`
      select e.id, e.user_id, e.context, e.waiting_for from journey_entries e
      where e.project_id = ${ctx.projectId}::uuid and e.journey_id = ${journeyId}::uuid and e.step_key = ${step.key}
        and e.state = 'waiting' and e.wait_event is not null
      order by e.id
      for update of e`,
    );
    if (!rows.length) continue;
    const keys = rows.map((r) => {
      const t = waitTarget({ userId: r.user_id, context: r.context }, step);
      return {
        id: r.id,
        wait_event: t.waitEvent,
        wait_key: t.waitKey,
        waiting_for: { ...t.waitingFor, timeout: r.waiting_for?.timeout ?? null },
      };
    });
    await ctx.db.execute(sql`
      update journey_entries e set wait_event = k.wait_event, wait_key = k.wait_key, waiting_for = k.waiting_for
      from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(id uuid, wait_event text, wait_key text, waiting_for jsonb)
      where e.project_id = ${ctx.projectId}::uuid and e.id = k.id`);
    n += rows.length;
  }
  return n;
}
