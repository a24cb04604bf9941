import type { DbOrTx } from "@/db/client";
import type { ProjectContext } from "@/lib/access/context";
import type { SchemaSample } from "./discover-schema";

/** A recorded event as steps 2-4 take it in hand: its id, name, data and times. */
export interface RecordedEvent extends SchemaSample {
  id: string;
  /**
   * The event's `occurred_at` as PostgreSQL or ISO text. Absent: it occurred when received (a system
   * event recorded now). Bounds the partitions steps 3-4 read (see `since` in lib/queue/jobs.ts).
   */
  occurredAt?: string;
}

interface Batch {
  projectId: string;
  events: RecordedEvent[];
}

/** The batch a drain is finishing, by its transaction (one transaction finishes one project's batch at a time). */
const open = new WeakMap<DbOrTx, Batch>();

/**
 * Runs `fn` with a batch open on `tx`: system events recorded in `tx` for the same project meanwhile
 * (`user.created` for records the batch creates, say) join it, so they go through steps 2-4 with the
 * events in hand instead of a second trip through `event_intake`. Returns what joined.
 */
export async function collectRecordedEvents(ctx: ProjectContext, fn: () => Promise<void>): Promise<RecordedEvent[]> {
  const { db: tx, projectId } = ctx;
  const batch: Batch = { projectId, events: [] };
  open.set(tx, batch);
  try {
    await fn();
  } finally {
    open.delete(tx);
  }
  return batch.events;
}

/** The open batch system events of this project recorded in `tx` should join, if any. */
export function openBatchOf(ctx: ProjectContext): RecordedEvent[] | undefined {
  const { db: tx, projectId } = ctx;
  const batch = open.get(tx);
  return batch?.projectId === projectId ? batch.events : undefined;
}
