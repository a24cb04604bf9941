import type { DbOrTx } from "@/db/client";
import { enqueue } from "./enqueue";
import type { JobPayload, QueueName } from "./jobs";

/**
 * @deprecated The job outbox is gone: call `enqueue(tx, queue, [payload])` from `lib/queue/enqueue.ts`.
 * Kept one merge round so branches written against it keep compiling; removed in the verb-signature sweep.
 */
export async function enqueueLater<Q extends QueueName>(tx: DbOrTx, queue: Q, payload: JobPayload<Q>): Promise<void> {
  await enqueue(tx, queue, [payload]);
}
