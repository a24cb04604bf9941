import { sql } from "drizzle-orm";
import { NotFound } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { inRetryingTransaction } from "@/lib/db/retry";

/**
 * Ends an active entry wherever it is in the steps; a user without concurrent runs may then enter again. Records `journey.user.exited` in the same transaction.
 */
export function exitJourneyEntry(
  ctx: ProjectContext,
  { journeyId, entryId }: { journeyId: string; entryId: string },
): Promise<void> {
  return inRetryingTransaction(ctx.db, (tx) => exitIn({ ...ctx, db: tx }, journeyId, entryId));
}

async function exitIn(ctx: ProjectContext, journeyId: string, entryId: string): Promise<void> {
  const rows = await ctx.db.execute<{ user_id: string; event_id: string; journey_name: string }>(sql`
    update journey_entries x set exited_at = now(), state = 'exited', step_key = null, wake_at = null,
      waiting_for = null, wait_event = null, wait_key = null
    from journeys j
    where x.project_id = ${ctx.projectId}::uuid and x.journey_id = ${journeyId}::uuid and x.id = ${entryId}::uuid
      and x.exited_at is null and j.project_id = x.project_id and j.id = x.journey_id
    returning x.user_id, x.event_id, j.name as journey_name`);
  const row = rows[0];
  if (!row) throw new NotFound("No active entry with this id in this journey.");
  await recordSystemEvents(ctx, [
    {
      name: "journey.user.exited",
      userId: row.user_id,
      data: { journey_id: journeyId, journey_name: row.journey_name, entry_id: entryId, event_id: row.event_id },
    },
  ]);
}
