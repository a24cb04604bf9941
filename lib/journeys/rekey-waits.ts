import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import type { Step } from "./step-schema";
import { waitTarget } from "./walk";

/** An entry an edit concerns, as the edit's batches and the pipeline's catch-up read it (locked). */
export interface EditedEntry {
  id: string;
  user_id: string;
  event_id: string;
  step_key: string;
  step_since: string;
  state: "active" | "waiting" | "exited";
  context: Record<string, unknown>;
  waiting_for: Record<string, unknown> | null;
  wait_event: string | null;
}

/** The columns of an EditedEntry, for the statements that lock them. */
export const EDITED_ENTRY_COLUMNS = sql`e.id, e.user_id, e.event_id, e.step_key, coalesce(e.step_since, e.entered_at)::text as step_since, e.state, e.context, e.waiting_for, e.wait_event`;

/**
 * Entries waiting for an event or a list at a kept step, brought in line with the steps as they are now
 * (`steps`, read with the journey): at a wait, their match key is made again from their own context (a
 * new `same_as` takes the entering event's value at the new key), so the event the step now names
 * releases them and the old one no longer does; the timeout they were given stays (as with a changed
 * delay, a changed timeout applies to those who reach the step afterwards). At a wait that became another
 * kind of step no event would release them any more (the probes follow the steps), so they run the step as
 * it is now, due at once. Idempotent: an entry already in line is written the same again. Returns how
 * many entries were changed.
 */
export async function rekeyWaits(ctx: ProjectContext, { steps, rows }: { steps: Step[]; rows: EditedEntry[] }) {
  const byKey = new Map(steps.map((s) => [s.key, s]));
  const waiting = rows.filter((r) => r.state === "waiting" && r.wait_event !== null && byKey.has(r.step_key));
  const rekinded = waiting.filter((r) => byKey.get(r.step_key)!.kind !== "wait").map((r) => r.id);
  if (rekinded.length)
    await ctx.db.execute(sql`
      update journey_entries e set state = 'active', wake_at = now(), step_since = now(), waiting_for = null,
        wait_event = null, wait_key = null
      where e.project_id = ${ctx.projectId}::uuid
        and e.id in (select jsonb_array_elements_text(${JSON.stringify(rekinded)}::jsonb)::uuid)`);
  const keys = waiting.flatMap((r) => {
    const step = byKey.get(r.step_key)!;
    if (step.kind !== "wait") return [];
    const t = waitTarget({ userId: r.user_id, context: r.context }, step);
    return [
      {
        id: r.id,
        wait_event: t.waitEvent,
        wait_key: t.waitKey,
        waiting_for: { ...t.waitingFor, timeout: r.waiting_for?.timeout ?? null },
      },
    ];
  });
  if (keys.length)
    await ctx.db.execute(sql`
      update journey_entries e set wait_event = k.wait_event, wait_key = k.wait_key, waiting_for = k.waiting_for
      from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(id uuid, wait_event text, wait_key text, waiting_for jsonb)
      where e.project_id = ${ctx.projectId}::uuid and e.id = k.id`);
  return rekinded.length + keys.length;
}
