import { sql } from "drizzle-orm";
import { fromDrizzle } from "pg-boss";
import type { DbOrTx } from "@/db/client";
import { getBoss } from "./boss";
import { parseJob, type JobPayload, type QueueName } from "./jobs";

/**
 * The one way to request jobs, from the web app and the worker alike: pg-boss inserts them through the
 * caller's drizzle transaction, so a job exists exactly when the work that caused it committed. Each
 * payload is checked with the queue's schema, the same one the worker validates with.
 */
export async function enqueue<Q extends QueueName>(tx: DbOrTx, queue: Q, payloads: JobPayload<Q>[]): Promise<void> {
  if (!payloads.length) return;
  const data = payloads.map((p) => parseJob(queue, p) as object);
  const boss = await getBoss();
  await boss.insert(
    queue,
    data.map((d) => ({ data: d })),
    { db: fromDrizzle(tx, sql) },
  );
}
