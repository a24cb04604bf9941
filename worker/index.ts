import { sql } from "drizzle-orm";
import { fromDrizzle } from "pg-boss";
import { closeDatabase, databaseUrl, getDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import type { Enqueue } from "@/lib/pipeline/enqueue";
import { QUEUES, type JobPayload, type QueueName } from "@/lib/queue/jobs";
import { withLogContext } from "@/lib/observability/context";
import { startHeartbeat } from "@/lib/observability/heartbeat";
import { log } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
import { startBoss } from "./boss";
import { startDrain } from "./drain";
import { handleBackfillOffset } from "./handlers/backfill-offset";
import { stepHandlers } from "./handlers/steps";
import { handleTick } from "./handlers/tick";
import { startOpsServer } from "./ops-server";
import { scheduleLoopOptions, startScheduleLoop } from "./schedule-loop";

process.env.RELAY_PROCESS ??= "worker";

// Every process applies migrations under one advisory lock (db/migrate.ts): started together, they apply them once.
await runMigrations(databaseUrl());
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
    // One job at a time, so its id is on every log line it writes and its duration is its own.
    for (const job of jobs) {
      await withLogContext({ jobId: job.id, queue: name }, async () => {
        const end = metrics.stepDuration.startTimer({ step: name });
        try {
          await HANDLERS[name]([QUEUES[name].parse(job.data)]);
          log.debug("job done");
        } catch (err) {
          metrics.stepFailures.inc({ step: name });
          log.error({ err }, "job failed; pg-boss retries it");
          throw err;
        } finally {
          end();
        }
      });
    }
  });
}
await boss.schedule("system.tick", "* * * * *");
const drain = await startDrain(databaseUrl(), enqueue);
// The schedule firing loop: our own table and loop, not one pg-boss job per firing.
const scheduleLoop = startScheduleLoop(getDb(), enqueue, scheduleLoopOptions());
const heartbeat = startHeartbeat(getDb());
await heartbeat.ready;
const opsServer = startOpsServer(boss);
log.info({ queues: Object.keys(HANDLERS), heartbeat: heartbeat.id }, "[worker] ready: intake drain, schedule loop, job queues");

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info(`worker ${signal}: finishing active jobs, then stopping`);
  // Graceful: stop claiming, finish the batch in hand; unfinished jobs return to the queue.
  await scheduleLoop.stop();
  await drain.stop();
  await boss.stop({ graceful: true, timeout: 20_000 });
  await heartbeat.stop();
  opsServer.close();
  await closeDatabase();
  log.info("worker stopped cleanly");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
// A crash is logged as one line and exits non-zero, so the supervisor (npm start) restarts this worker.
process.on("uncaughtException", (err) => {
  log.fatal({ err }, "worker crashed");
  process.exit(1);
});
