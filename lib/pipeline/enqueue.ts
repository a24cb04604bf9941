import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import type { JobPayload, QueueName } from "@/lib/queue/jobs";
import { schemaDeltaOf, type SchemaSample } from "./discover-schema";

/**
 * Sends jobs inside the caller's transaction (the worker implements it with pg-boss's drizzle adapter),
 * so a job exists exactly when the work that caused it committed.
 */
export type Enqueue = <Q extends QueueName>(tx: DbOrTx, queue: Q, payloads: JobPayload<Q>[]) => Promise<void>;

/** Step jobs carry at most this many events, so one job stays a short transaction. */
export const STEP_BATCH = 1000;

export interface RecordedEvent extends SchemaSample {
  id: string;
}

/** Which of steps 3 and 4 have anything listening for these event names right now (most batches: neither). */
async function listeners(tx: DbOrTx, projectId: string, names: string[]): Promise<{ lists: boolean; journeys: boolean }> {
  const json = JSON.stringify(names);
  const [row] = await tx.execute<{ lists: boolean; journeys: boolean }>(sql`
    select
      exists (select 1 from lists where project_id = ${projectId}::uuid and kind = 'dynamic'
        and event_names && array(select jsonb_array_elements_text(${json}::jsonb))) as lists,
      exists (select 1 from journey_entrances where project_id = ${projectId}::uuid
        and (event_name in (select jsonb_array_elements_text(${json}::jsonb))
          or (kind = 'scheduled' and exists (select 1 from jsonb_array_elements_text(${json}::jsonb) n where n like 'scheduled.%')))) as journeys`);
  return row!;
}

/**
 * Starts steps 2-4 for recorded events. Step 2 gets one job with the schema delta computed here from
 * data in hand. Steps 3-4 get one job per slice of at most STEP_BATCH events (ids and names), and are only
 * enqueued when a dynamic list / journey entrance listens for one of the names at recording time: with
 * none, running the step would change nothing (a list created later is evaluated over every user anyway).
 */
export async function enqueueSteps(tx: DbOrTx, enqueue: Enqueue, projectId: string, recorded: RecordedEvent[]): Promise<void> {
  if (!recorded.length) return;
  // The schema delta is an aggregate, small whatever the batch size: one job for all of it.
  await enqueue(tx, "pipeline.schema", [{ projectId, batchId: randomUUID(), delta: schemaDeltaOf(recorded) }]);
  const steps: JobPayload<"pipeline.lists">[] = [];
  for (let i = 0; i < recorded.length; i += STEP_BATCH) {
    const slice = recorded.slice(i, i + STEP_BATCH);
    steps.push({ projectId, batchId: randomUUID(), names: [...new Set(slice.map((e) => e.name))], eventIds: slice.map((e) => e.id) });
  }
  const listening = await listeners(tx, projectId, [...new Set(recorded.map((e) => e.name))]);
  if (listening.lists) await enqueue(tx, "pipeline.lists", steps);
  if (listening.journeys) await enqueue(tx, "pipeline.journeys", steps);
}
