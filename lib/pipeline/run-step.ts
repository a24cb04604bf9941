import { gte } from "drizzle-orm";
import { selectByIds } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";
import type { Db } from "@/db/client";
import { events, pipelineStepsDone, type EventRow } from "@/db/schema";
import type { StepQueue } from "@/lib/queue/jobs";
import { inRetryingTransaction } from "@/lib/db/retry";

/**
 * Runs one pipeline step for one batch of the project exactly once. The done-marker is inserted first, in
 * the same transaction as the step's effect (which gets the context on that transaction): a retry after
 * commit finds it and does nothing; a concurrent duplicate blocks on the marker's key until the first
 * commits, then does nothing; a crash rolls both back.
 */
export async function runStep(
  ctx: ProjectContext<Db>,
  input: { step: StepQueue; batchId: string; effect: (ctx: ProjectContext) => Promise<void> },
): Promise<boolean> {
  const { step, batchId, effect } = input;
  return inRetryingTransaction(ctx.db, async (tx) => {
    const claimed = await tx
      .insert(pipelineStepsDone)
      .values({ projectId: ctx.projectId, batchId, step })
      .onConflictDoNothing()
      .returning({ step: pipelineStepsDone.step });
    if (!claimed.length) return false;
    await effect({ ...ctx, db: tx });
    return true;
  });
}

/**
 * Runs one step for several batches of the project in one transaction: a done-marker for each, and the
 * effect once (on the context on that transaction), over the batches no earlier run finished. Lists and
 * journey entrances are decided from the current state and the events in time order, so one pass over
 * the union of the batches does what one pass per batch would; under a backlog a worker's fetch of
 * twenty jobs then costs one evaluation, not twenty. Returns the batch ids this run claimed.
 */
export async function runSteps(
  ctx: ProjectContext<Db>,
  input: {
    step: StepQueue;
    batchIds: string[];
    effect: (ctx: ProjectContext, claimed: string[]) => Promise<void>;
  },
): Promise<string[]> {
  const { step, batchIds, effect } = input;
  const { projectId } = ctx;
  if (!batchIds.length) return [];
  return inRetryingTransaction(ctx.db, async (tx) => {
    const claimed = await tx
      .insert(pipelineStepsDone)
      .values([...new Set(batchIds)].sort().map((batchId) => ({ projectId, batchId, step })))
      .onConflictDoNothing()
      .returning({ batchId: pipelineStepsDone.batchId });
    if (claimed.length)
      await effect(
        { ...ctx, db: tx },
        claimed.map((c) => c.batchId),
      );
    return claimed.map((c) => c.batchId);
  });
}

/** The batch's recorded events (erased ones, of a deleted user, are simply absent). */
export async function loadEvents(ctx: ProjectContext, input: { ids: string[]; since?: string }): Promise<EventRow[]> {
  const { ids, since } = input;
  // By key probe: `id = any(ids)` read the project's whole history when the statistics were stale.
  if (!since) return selectByIds(ctx.db, events, ctx.projectId, ids);
  // `since` (the earliest occurred_at, from the job) keeps each probe to the partitions from there on.
  const found = await selectByIds(ctx.db, events, ctx.projectId, ids, gte(events.occurredAt, new Date(since)));
  if (found.length === new Set(ids).size) return found;
  // A writer that left an event's time out (it is then taken as its receipt) and dated it earlier: found anyway.
  const have = new Set(found.map((e) => e.id));
  return [
    ...found,
    ...(await selectByIds(
      ctx.db,
      events,
      ctx.projectId,
      ids.filter((id) => !have.has(id)),
    )),
  ];
}
