import type { Db } from "@/db/client";
import { enterJourneys } from "@/lib/journeys/enter-journeys";
import { recomputeListsForEvents } from "@/lib/lists/recompute-lists";
import type { JobPayload } from "@/lib/queue/jobs";
import { addRollups } from "@/lib/overview/add-rollups";
import { discoverSchema } from "./discover-schema";
import { listenersFor } from "./listeners";
import { loadEvents, runStep } from "./run-step";
import { systemContext } from "@/lib/access/context";

/** Pipeline step 2 for one job: merge the batch's schema delta and its overview counts (exactly once, with the marker). */
export async function runSchemaStep(db: Db, job: JobPayload<"pipeline.schema">): Promise<void> {
  await runStep(db, "pipeline.schema", job, async (tx) => {
    const ctx = systemContext(tx, job.projectId);
    await discoverSchema(ctx, job.delta);
    await addRollups(ctx, job.rollup);
  });
}

/** Pipeline step 3 for one job: recompute the dynamic lists that (still) listen for the batch's names. */
export async function runListsStep(db: Db, job: JobPayload<"pipeline.lists">): Promise<void> {
  await runStep(db, "pipeline.lists", job, async (tx) => {
    const ctx = systemContext(tx, job.projectId);
    if ((await listenersFor(ctx, job.names)).lists) await recomputeListsForEvents(ctx, await loadEvents(ctx, job.eventIds));
  });
}

/** Pipeline step 4 for one job: evaluate the journey entrances that (still) listen for the batch's names. */
export async function runJourneysStep(db: Db, job: JobPayload<"pipeline.journeys">): Promise<void> {
  await runStep(db, "pipeline.journeys", job, async (tx) => {
    const ctx = systemContext(tx, job.projectId);
    if ((await listenersFor(ctx, job.names)).journeys) await enterJourneys(ctx, await loadEvents(ctx, job.eventIds));
  });
}
