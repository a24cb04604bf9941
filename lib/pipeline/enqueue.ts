import { randomUUID } from "node:crypto";
import type { Tx } from "@/db/client";
import type { JobPayload, QueueName } from "@/lib/queue/jobs";
import { schemaDeltaOf, type SchemaSample } from "./discover-schema";

/**
 * Sends jobs inside the caller's transaction (the worker implements it with pg-boss's drizzle adapter),
 * so a job exists exactly when the work that caused it committed.
 */
export type Enqueue = <Q extends QueueName>(tx: Tx, queue: Q, payloads: JobPayload<Q>[]) => Promise<void>;

/** Step jobs carry at most this many events, so one job stays a short transaction. */
export const STEP_BATCH = 1000;

export interface RecordedEvent extends SchemaSample {
  id: string;
}

/**
 * Starts steps 2-4 for recorded events: per slice of events one job per step, sharing a batch id. Step 2
 * gets the schema delta computed here from data in hand; steps 3-4 get the ids and the names, so they can
 * return at once when no list or journey listens for any of them.
 */
export async function enqueueSteps(tx: Tx, enqueue: Enqueue, projectId: string, recorded: RecordedEvent[]): Promise<void> {
  const schema: JobPayload<"pipeline.schema">[] = [];
  const steps: JobPayload<"pipeline.lists">[] = [];
  for (let i = 0; i < recorded.length; i += STEP_BATCH) {
    const slice = recorded.slice(i, i + STEP_BATCH);
    const batchId = randomUUID();
    schema.push({ projectId, batchId, delta: schemaDeltaOf(slice) });
    steps.push({ projectId, batchId, names: [...new Set(slice.map((e) => e.name))], eventIds: slice.map((e) => e.id) });
  }
  if (!steps.length) return;
  await enqueue(tx, "pipeline.schema", schema);
  await enqueue(tx, "pipeline.lists", steps);
  await enqueue(tx, "pipeline.journeys", steps);
}
