import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { jobOutbox } from "@/db/schema";
import { INTAKE_CHANNEL, QUEUES, type JobPayload, type QueueName } from "./jobs";

/** Requests a job from inside any transaction; it reaches pg-boss only if that transaction commits. */
export async function enqueueLater<Q extends QueueName>(tx: DbOrTx, queue: Q, payload: JobPayload<Q>): Promise<void> {
  await tx.insert(jobOutbox).values({ queue, payload: QUEUES[queue].parse(payload) as Record<string, unknown> });
  await tx.execute(sql`select pg_notify(${INTAKE_CHANNEL}, '')`);
}

/** Worker side: claims outbox rows and hands them to `send` (pg-boss inside the same transaction). */
export async function drainOutbox(tx: DbOrTx, send: (queue: QueueName, payloads: unknown[]) => Promise<void>, limit = 100): Promise<number> {
  const rows = await tx.execute<{ queue: QueueName; payload: unknown }>(sql`
    delete from job_outbox where id in (select id from job_outbox order by id for update skip locked limit ${limit})
    returning queue, payload`);
  const byQueue = new Map<QueueName, unknown[]>();
  for (const r of rows) byQueue.set(r.queue, [...(byQueue.get(r.queue) ?? []), r.payload]);
  for (const [queue, payloads] of byQueue) await send(queue, payloads);
  return rows.length;
}
