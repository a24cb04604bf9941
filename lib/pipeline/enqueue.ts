import { randomUUID } from "node:crypto";
import type { Tx } from "@/db/client";
import { STEP_QUEUES, type JobPayload, type QueueName } from "@/lib/queue/jobs";

/**
 * Sends jobs inside the caller's transaction (the worker implements it with pg-boss's drizzle adapter),
 * so a job exists exactly when the work that caused it committed.
 */
export type Enqueue = <Q extends QueueName>(tx: Tx, queue: Q, payloads: JobPayload<Q>[]) => Promise<void>;

/** Step jobs carry at most this many event ids, so one job stays a short transaction. */
export const STEP_BATCH = 1000;

/** Starts steps 2-4 for recorded events: one job per step per slice of ids, all sharing a batch id. */
export async function enqueueSteps(tx: Tx, enqueue: Enqueue, projectId: string, eventIds: string[]): Promise<void> {
  const batches: JobPayload<"pipeline.schema">[] = [];
  for (let i = 0; i < eventIds.length; i += STEP_BATCH) {
    batches.push({ projectId, batchId: randomUUID(), eventIds: eventIds.slice(i, i + STEP_BATCH) });
  }
  if (!batches.length) return;
  for (const q of STEP_QUEUES) await enqueue(tx, q, batches);
}
