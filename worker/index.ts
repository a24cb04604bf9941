import { closeDatabase, databaseUrl, getDb } from "@/db/client";
import { QUEUES, type JobPayload, type QueueName } from "@/lib/queue/jobs";
import { startBoss } from "./boss";
import { handleBackfillOffset } from "./handlers/backfill-offset";
import { handleTick } from "./handlers/tick";
import { scheduleLoopOptions, startScheduleLoop } from "./schedule-loop";

/** One handler per queue. Each job is validated with the queue's schema from lib/queue/jobs.ts. */
const HANDLERS: { [Q in QueueName]: (jobs: unknown[]) => Promise<void> } = {
  "system.tick": async () => handleTick(),
  "schedules.backfill-offset": async (jobs) => handleBackfillOffset(jobs as JobPayload<"schedules.backfill-offset">[]),
};

const boss = await startBoss(databaseUrl());
for (const name of Object.keys(HANDLERS) as QueueName[]) {
  await boss.work(name, { batchSize: 100 }, async (jobs) => {
    const payloads = jobs.map((j) => QUEUES[name].parse(j.data));
    await HANDLERS[name](payloads);
  });
}
await boss.schedule("system.tick", "* * * * *");
const scheduleLoop = startScheduleLoop(getDb(), boss, scheduleLoopOptions());
console.log(`[worker] ready: ${Object.keys(HANDLERS).join(", ")}`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[worker] ${signal}: finishing active jobs, then stopping`);
  // Graceful: stop fetching, wait for handlers in flight; unfinished jobs return to the queue.
  await scheduleLoop.stop();
  await boss.stop({ graceful: true, timeout: 20_000 });
  await closeDatabase();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
