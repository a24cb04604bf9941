import { closeDatabase, getDb } from "@/db/client";
import { getBoss, stopBoss } from "@/lib/queue/boss";
import type { QueueName } from "@/lib/queue/jobs";
import { resumeBackfills } from "@/lib/schedules/resume-backfills";
import { startDrain } from "./drain";
import { dispatch, HANDLERS } from "./handlers";
import { scheduleLoopOptions, startScheduleLoop } from "./schedule-loop";

const boss = await getBoss({ worker: true });
for (const name of Object.keys(HANDLERS) as QueueName[]) {
  await boss.work(name, { batchSize: 20, localConcurrency: 2, pollingIntervalSeconds: 0.5, burstWhenBatchFull: true }, (jobs) =>
    dispatch(name, jobs.map((j) => j.data)),
  );
}
await boss.schedule("system.tick", "* * * * *");
await resumeBackfills(getDb());
const drain = await startDrain();
// The schedule firing loop: our own table and loop, not one pg-boss job per firing.
const scheduleLoop = startScheduleLoop(getDb(), scheduleLoopOptions());
console.log(`[worker] ready: intake drain, schedule loop, ${Object.keys(HANDLERS).join(", ")}`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[worker] ${signal}: finishing active jobs, then stopping`);
  // Graceful: stop claiming, finish the batch in hand; unfinished jobs return to the queue.
  await scheduleLoop.stop();
  await drain.stop();
  await stopBoss();
  await closeDatabase();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
