import type { Db } from "@/db/client";
import { enterJourneys } from "@/lib/journeys/enter-journeys";
import { recomputeListsForEvents } from "@/lib/lists/recompute-lists";
import type { JobPayload } from "@/lib/queue/jobs";
import { discoverSchema } from "./discover-schema";
import { listenersFor } from "./listeners";
import { loadEvents, runStep } from "./run-step";

/** Pipeline step 2 for one job: merge the batch's schema delta. */
export async function runSchemaStep(db: Db, job: JobPayload<"pipeline.schema">): Promise<void> {
  await runStep(db, "pipeline.schema", job, (tx) => discoverSchema(tx, job.projectId, job.delta));
}

/** Pipeline step 3 for one job: recompute the dynamic lists that (still) listen for the batch's names. */
export async function runListsStep(db: Db, job: JobPayload<"pipeline.lists">): Promise<void> {
  await runStep(db, "pipeline.lists", job, async (tx) => {
    if ((await listenersFor(tx, job.projectId, job.names)).lists) await recomputeListsForEvents(tx, job.projectId, await loadEvents(tx, job.projectId, job.eventIds));
  });
}

/** Pipeline step 4 for one job: evaluate the journey entrances that (still) listen for the batch's names. */
export async function runJourneysStep(db: Db, job: JobPayload<"pipeline.journeys">): Promise<void> {
  await runStep(db, "pipeline.journeys", job, async (tx) => {
    if ((await listenersFor(tx, job.projectId, job.names)).journeys) await enterJourneys(tx, job.projectId, await loadEvents(tx, job.projectId, job.eventIds));
  });
}
