import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { journeyEntrances, journeys } from "@/db/schema";
import type { JourneyInput, JourneyView } from "./schemas";
import { toJourneyViews } from "./view";
import { withTransaction } from "@/lib/db/transaction";
import { NotFound } from "@/lib/http/errors";
import { queryRows } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";

/** A scheduled entrance must name a schedule of this project and one of its offsets (issue 9.10). */
async function checkScheduledEntrances(tx: DbOrTx, projectId: string, input: JourneyInput): Promise<void> {
  for (const [i, e] of input.entrances.entries()) {
    if (e.kind !== "scheduled") continue;
    const [row] = await queryRows<{ offset: boolean }>(
      tx,
      sql`
      select exists (select 1 from schedule_offsets o where o.project_id = s.project_id and o.schedule_id = s.id and o.id = ${e.schedule_offset_id}) as "offset"
      from schedules s where s.project_id = ${projectId} and s.id = ${e.schedule_id}`,
    );
    if (!row)
      throw new NotFound("No such schedule in this project.", {
        errors: [{ path: `entrances[${i}].schedule_id`, message: "no such schedule in this project" }],
      });
    if (!row.offset)
      throw new NotFound("No such offset of this schedule.", {
        errors: [{ path: `entrances[${i}].schedule_offset_id`, message: "no such offset of this schedule" }],
      });
  }
}

/**
 * Creates a journey with its entrances. Scheduled entrances name a schedule definition and offset by id
 * and are matched against `scheduled.*` events' `schedule_id` / `schedule_offset_id` when they fire.
 */
export async function createJourney(ctx: ProjectContext, input: JourneyInput): Promise<JourneyView> {
  return withTransaction(ctx.db, async (tx) => {
    await checkScheduledEntrances(tx, ctx.projectId, input);
    const [row] = await tx
      .insert(journeys)
      .values({
        projectId: ctx.projectId,
        name: input.name,
        allowMultipleEntries: input.allow_multiple_entries,
        allowConcurrentRuns: input.allow_concurrent_runs,
      })
      .returning();
    await tx.insert(journeyEntrances).values(
      input.entrances.map((e) =>
        e.kind === "event"
          ? {
              projectId: ctx.projectId,
              journeyId: row!.id,
              kind: e.kind,
              eventName: e.event_name,
              condition: e.condition ?? null,
              userRule: e.user_rule ?? null,
              dataKey: e.data_key,
            }
          : {
              projectId: ctx.projectId,
              journeyId: row!.id,
              kind: e.kind,
              scheduleId: e.schedule_id,
              scheduleOffsetId: e.schedule_offset_id,
              dataKey: e.data_key,
            },
      ),
    );
    return (await toJourneyViews({ ...ctx, db: tx }, [row!]))[0]!;
  });
}
