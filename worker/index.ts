import { sql } from "drizzle-orm";
import { fromDrizzle } from "pg-boss";
import { closeDatabase, databaseUrl, getDb } from "@/db/client";
import type { Enqueue } from "@/lib/pipeline/enqueue";
import { QUEUES, type JobPayload, type QueueName } from "@/lib/queue/jobs";
import { startBoss } from "./boss";
import { startDrain } from "./drain";
import { handleBackfillOffset } from "./handlers/backfill-offset";
import { stepHandlers } from "./handlers/steps";
import { handleTick } from "./handlers/tick";
import { scheduleLoopOptions, startScheduleLoop } from "./schedule-loop";

const boss = await startBoss(databaseUrl());

/** Jobs are sent inside the drizzle transaction that made their cause durable. */
const enqueue: Enqueue = async (tx, queue, payloads) => {
  if (!payloads.length) return;
  await boss.insert(queue, payloads.map((data) => ({ data })), { db: fromDrizzle(tx as never, sql as never) });
};

/** One handler per queue. Each job is validated with the queue's schema from lib/queue/jobs.ts. */
const HANDLERS: { [Q in QueueName]: (jobs: unknown[]) => Promise<void> } = {
  "system.tick": async () => handleTick(getDb(), enqueue),
  ...stepHandlers(getDb, enqueue),
  "schedules.backfill-offset": async (jobs) => handleBackfillOffset(jobs as JobPayload<"schedules.backfill-offset">[]),
};

for (const name of Object.keys(HANDLERS) as QueueName[]) {
  await boss.work(name, { batchSize: 20, localConcurrency: 2, pollingIntervalSeconds: 0.5, burstWhenBatchFull: true }, async (jobs) => {
    const payloads = jobs.map((j) => QUEUES[name].parse(j.data));
    await HANDLERS[name](payloads);
  });
}
await boss.schedule("system.tick", "* * * * *");
const drain = await startDrain(databaseUrl(), enqueue);
// The schedule firing loop: our own table and loop, not one pg-boss job per firing.
const scheduleLoop = startScheduleLoop(getDb(), enqueue, scheduleLoopOptions());
console.log(`[worker] ready: intake drain, schedule loop, ${Object.keys(HANDLERS).join(", ")}`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[worker] ${signal}: finishing active jobs, then stopping`);
  // Graceful: stop claiming, finish the batch in hand; unfinished jobs return to the queue.
  await scheduleLoop.stop();
  await drain.stop();
  await boss.stop({ graceful: true, timeout: 20_000 });
  await closeDatabase();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
