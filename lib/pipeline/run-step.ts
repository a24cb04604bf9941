import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { events, pipelineStepsDone, type EventRow } from "@/db/schema";
import { inRetryingTransaction } from "@/lib/identity/retry";
import type { JobPayload, StepQueue } from "@/lib/queue/jobs";

/**
 * Runs one pipeline step for one batch exactly once. The done-marker is inserted first, in the same
 * transaction as the step's effect: a retry after commit finds it and does nothing; a concurrent duplicate
 * blocks on the marker's key until the first commits, then does nothing; a crash rolls both back.
 * Events erased meanwhile (user deleted) are simply absent.
 */
export async function runStep(db: Db, step: StepQueue, job: JobPayload<StepQueue>, effect: (tx: Tx, rows: EventRow[]) => Promise<void>): Promise<boolean> {
  return inRetryingTransaction(db, async (tx) => {
    const claimed = await tx
      .insert(pipelineStepsDone)
      .values({ projectId: job.projectId, batchId: job.batchId, step })
      .onConflictDoNothing()
      .returning({ step: pipelineStepsDone.step });
    if (!claimed.length) return false;
    const rows = await tx.select().from(events).where(and(eq(events.projectId, job.projectId), inArray(events.id, job.eventIds)));
    if (rows.length) await effect(tx, rows);
    return true;
  });
}
