import { journeyEntrances, journeys } from "@/db/schema";
import type { JourneyInput, JourneyView } from "./schemas";
import { toJourneyViews } from "./view";
import { withTransaction } from "@/lib/db/transaction";
import { checkScheduledEntrances } from "./check-scheduled-entrances";
import { entranceColumns } from "./entrance-columns";
import { checkSplitTests } from "./check-split-tests";
import { checkSteps } from "./check-steps";
import { setGoal } from "@/lib/reports/set-goal";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Creates a journey with its entrances. Scheduled entrances name a schedule definition and offset by id
 * and are matched against `scheduled.*` events' `schedule_id` / `schedule_offset_id` when they fire.
 * Its steps are checked whole (check-steps.ts) before anything is written.
 */
export async function createJourney(ctx: ProjectContext, input: JourneyInput): Promise<JourneyView> {
  return withTransaction(ctx.db, async (tx) => {
    await checkScheduledEntrances({ ...ctx, db: tx }, input);
    await checkSteps({ ...ctx, db: tx }, input.steps);
    checkSplitTests(input.steps, Boolean(input.goal));
    const [row] = await tx
      .insert(journeys)
      .values({
        projectId: ctx.projectId,
        name: input.name,
        allowMultipleEntries: input.allow_multiple_entries,
        allowConcurrentRuns: input.allow_concurrent_runs,
        steps: input.steps,
        paused: input.paused,
        tags: input.tags ?? [],
      })
      .returning();
    await tx
      .insert(journeyEntrances)
      .values(input.entrances.map((e) => ({ projectId: ctx.projectId, journeyId: row!.id, ...entranceColumns(e) })));
    await setGoal({ ...ctx, db: tx }, { ownerKind: "journey", ownerId: row!.id, goal: input.goal ?? null });
    return (await toJourneyViews({ ...ctx, db: tx }, [row!]))[0]!;
  });
}
