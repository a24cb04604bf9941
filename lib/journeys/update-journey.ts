import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import { journeyEntrances, journeys } from "@/db/schema";
import { inProject } from "@/lib/db/in-project";
import { withTransaction } from "@/lib/db/transaction";
import { Invalid } from "@/lib/http/errors";
import { checkScheduledEntrances } from "./check-scheduled-entrances";
import { entranceColumns } from "./entrance-columns";
import { checkSplitTests } from "./check-split-tests";
import { checkSteps } from "./check-steps";
import { goalsOf, setGoal } from "@/lib/reports/set-goal";
import { recordStepEdit } from "./record-step-edit";
import type { Step } from "./step-schema";
import { lockJourney } from "./get-journey";
import type { JourneyPatch, JourneyView } from "./schemas";
import { toJourneyViews } from "./view";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Changes a journey's settings and, when `entrances` is given, replaces its entrances: those named by id
 * are updated in place (their entries keep their `entrance_id`), new ones are added, the rest removed.
 * Entries already made keep their entrance. `steps` replaces the steps, matched by key: entries at a
 * removed step move on (move-off-removed-steps.ts); entries at a wait whose event or list changed wait for
 * the new one (rekey-waits.ts); the edit records that for the worker, which does it in batches
 * (record-step-edit.ts), so the request costs the same however many entries the journey holds. `paused`
 * holds or releases every entry (the due loop passes over a paused journey). One transaction.
 */
export async function updateJourney(
  ctx: ProjectContext,
  { id, patch }: { id: string; patch: JourneyPatch },
): Promise<JourneyView> {
  return withTransaction(ctx.db, async (tx) => {
    // Locked: the pipeline's entrances and an edit of the steps decide one at a time.
    const before = await lockJourney({ ...ctx, db: tx }, id);
    const hasGoal =
      patch.goal !== undefined
        ? patch.goal !== null
        : (await goalsOf({ ...ctx, db: tx }, { ownerKind: "journey", ownerIds: [id] })).has(id);
    checkSplitTests((patch.steps ?? before.steps) as Step[], hasGoal);
    if (patch.goal !== undefined)
      await setGoal({ ...ctx, db: tx }, { ownerKind: "journey", ownerId: id, goal: patch.goal });
    if (patch.steps) {
      await checkSteps({ ...ctx, db: tx }, patch.steps);
      await recordStepEdit({ ...ctx, db: tx }, { journeyId: id, before: before.steps as Step[], after: patch.steps });
    }
    if (patch.entrances) {
      await checkScheduledEntrances({ ...ctx, db: tx }, { entrances: patch.entrances });
      const kept = patch.entrances.flatMap((e) => (e.id ? [e.id] : []));
      if (new Set(kept).size !== kept.length)
        throw new Invalid("An entrance id appears twice.", {
          errors: [{ path: "entrances", message: "duplicate entrance id" }],
        });
      const mine = kept.length
        ? await tx
            .select({ id: journeyEntrances.id })
            .from(journeyEntrances)
            .where(
              inProject(ctx, journeyEntrances, eq(journeyEntrances.journeyId, id), inArray(journeyEntrances.id, kept)),
            )
        : [];
      const known = new Set(mine.map((r) => r.id));
      const stranger = patch.entrances.findIndex((e) => e.id && !known.has(e.id));
      if (stranger >= 0)
        throw new Invalid("An entrance id is not one of this journey's.", {
          errors: [{ path: `entrances[${stranger}].id`, message: "not an entrance of this journey" }],
        });
      await tx
        .delete(journeyEntrances)
        .where(
          inProject(
            ctx,
            journeyEntrances,
            eq(journeyEntrances.journeyId, id),
            kept.length ? notInArray(journeyEntrances.id, kept) : undefined,
          ),
        );
      for (const e of patch.entrances.filter((x) => x.id)) {
        await tx
          .update(journeyEntrances)
          .set(entranceColumns(e))
          .where(and(eq(journeyEntrances.projectId, ctx.projectId), eq(journeyEntrances.id, e.id!)));
      }
      const added = patch.entrances.filter((x) => !x.id);
      if (added.length)
        await tx
          .insert(journeyEntrances)
          .values(added.map((e) => ({ projectId: ctx.projectId, journeyId: id, ...entranceColumns(e) })));
    }
    const [row] = await tx
      .update(journeys)
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.allow_multiple_entries !== undefined ? { allowMultipleEntries: patch.allow_multiple_entries } : {}),
        ...(patch.allow_concurrent_runs !== undefined ? { allowConcurrentRuns: patch.allow_concurrent_runs } : {}),
        ...(patch.steps !== undefined ? { steps: patch.steps } : {}),
        ...(patch.paused !== undefined ? { paused: patch.paused } : {}),
        ...(patch.tags !== undefined ? { tags: patch.tags } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(journeys.projectId, ctx.projectId), eq(journeys.id, id)))
      .returning();
    return (await toJourneyViews({ ...ctx, db: tx }, [row!]))[0]!;
  });
}
