import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Called by lib/messages in the transaction that gives a journey's message its final state (sent,
 * skipped, failed): the entry, if it still waits at that `send` step, is due now, so the due loop moves
 * it on and records the message's outcome in its path (read from the message row). Imports nothing from
 * lib/messages (no import circle). A woken entry of a paused journey stays held until resumed.
 */
export async function wakeEntryForMessage(
  ctx: ProjectContext,
  { entryId, stepKey }: { entryId: string; stepKey: string },
): Promise<void> {
  await ctx.db.execute(sql`
    update journey_entries set wake_at = now()
    where project_id = ${ctx.projectId}::uuid and id = ${entryId}::uuid and step_key = ${stepKey}
      and state = 'waiting' and waiting_for ->> 'kind' = 'message'`);
}
