import { closeDatabase, databaseUrl, getDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { withLogContext } from "@/lib/observability/log-context";
import { startHeartbeat } from "@/lib/observability/heartbeat";
import { log } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
import { exitWithSupervisor } from "@/lib/observability/supervisor";
import { MAIL_NOT_CONFIGURED, mailConfigured } from "@/lib/mail/mail-configured";
import { getBoss, stopBoss } from "@/lib/queue/boss";
import type { QueueName } from "@/lib/queue/jobs";
import { resumeBackfills } from "@/lib/schedules/resume-backfills";
import { startSender } from "@/lib/destinations/sender";
import { startMessageSender } from "@/lib/messages/sender";
import { composeThreadCount, startComposeThreads, stopComposeThreads } from "@/lib/providers/compose-threads";
import { inboundSmtpOptions, startInboundSmtp } from "@/lib/feedback/inbound-smtp";
import { startDrain } from "./drain";
import { startBroadcastLoop } from "./broadcast-loop";
import { startImportLoop } from "./import-loop";
import { dispatch, HANDLERS, MERGED_QUEUES } from "./handlers";
import { startOpsServer } from "./ops-server";
import { startRetentionLoop } from "./retention-loop";
import { scheduleLoopOptions, startScheduleLoop } from "./schedule-loop";
import { journeyLoopOptions, startJourneyLoop } from "./journey-loop";

process.env.RELAY_PROCESS ??= "worker";
// Every process applies migrations under one advisory lock (db/migrate.ts): started together, they apply them once.
// DATABASE_DIRECT_URL (PostgreSQL itself, not a transaction-mode pooler) when set: a session lock needs one backend.
await runMigrations(process.env.DATABASE_DIRECT_URL ?? databaseUrl());

const boss = await getBoss({ worker: true });
for (const name of Object.keys(HANDLERS) as QueueName[]) {
  await boss.work(
    name,
    { batchSize: 20, localConcurrency: 2, pollingIntervalSeconds: 0.5, burstWhenBatchFull: true },
    async (jobs) => {
      // Merged queues take the fetched jobs at once (one pass decides them all); the others run one job at
      // a time, so its id is on every log line it writes and its duration is its own.
      const units = MERGED_QUEUES.has(name) ? [jobs] : jobs.map((job) => [job]);
      for (const unit of units) {
        await withLogContext(
          { jobId: unit.length === 1 ? unit[0]!.id : unit.map((j) => j.id).join(","), queue: name },
          async () => {
            const end = metrics.stepDuration.startTimer({ step: name });
            try {
              await dispatch(
                name,
                unit.map((j) => j.data),
              );
              log.debug({ jobs: unit.length }, "job done");
            } catch (err) {
              metrics.stepFailures.inc({ step: name });
              log.error({ err }, "job failed; pg-boss retries it");
              throw err;
            } finally {
              end();
            }
          },
        );
      }
    },
  );
}
// With `{}` as its data: pg-boss sends null otherwise, which the queue's payload schema refuses (the tick then never ran).
await boss.schedule("system.tick", "* * * * *", {});
await resumeBackfills({ db: getDb() });
const drain = await startDrain();
// The schedule firing loop: our own table and loop, not one pg-boss job per firing.
const scheduleLoop = startScheduleLoop(getDb(), scheduleLoopOptions());
// The journeys' due loop: delays, wait timeouts, new and released entries (lib/journeys/advance-due.ts).
const journeyLoop = startJourneyLoop(getDb(), journeyLoopOptions());
const importLoop = startImportLoop(getDb());
// Destinations: our own claim loop over destination_deliveries, with per-destination concurrency.
const sender = await startSender({ db: getDb() });
// E-mail is composed and DKIM-signed on threads of its own (lib/providers/compose-threads.ts).
startComposeThreads(composeThreadCount());
// Messages: the same leased runner over `messages` (lib/outbound/leased-sender.ts).
const messageSender = await startMessageSender({ db: getDb() });
// Bounces and complaints by mail, with INBOUND_SMTP_PORT and BOUNCE_DOMAIN set (lib/feedback/inbound-smtp.ts).
const inboundOptions = inboundSmtpOptions();
const inbound = inboundOptions ? await startInboundSmtp({ db: getDb() }, inboundOptions) : null;
// Broadcasts: their start (in chunks) and finish, beside the sender rather than in its loop.
const broadcastLoop = startBroadcastLoop(getDb());
// Partitions of `events` ahead of time, and retention (lib/events/partitions.ts, lib/events/retention.ts).
const retentionLoop = startRetentionLoop(getDb());
const heartbeat = startHeartbeat({ db: getDb() });
await heartbeat.ready;
const opsServer = startOpsServer(boss);
log.info(
  { queues: Object.keys(HANDLERS), heartbeat: heartbeat.id },
  "[worker] ready: intake drain, schedule loop, journey loop, import loop, destination sender, message sender, broadcast loop, job queues",
);
if (!mailConfigured()) log.warn(`[worker] ${MAIL_NOT_CONFIGURED}`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info(`worker ${signal}: finishing active jobs, then stopping`);
  // Graceful: stop claiming, finish the batch in hand; unfinished jobs return to the queue.
  await inbound?.stop();
  // The loops are independent of each other: each stops claiming and finishes what it holds at once,
  // rather than each waiting out the one before it.
  await Promise.all([
    scheduleLoop.stop(),
    journeyLoop.stop(),
    importLoop.stop(),
    retentionLoop.stop(),
    drain.stop(),
    sender.stop(),
    broadcastLoop.stop(),
    messageSender.stop(),
  ]);
  await stopComposeThreads();
  await stopBoss();
  await heartbeat.stop();
  opsServer.close();
  await closeDatabase();
  log.info("worker stopped cleanly");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
// Under `npm start`: a supervisor killed outright (SIGKILL, the OOM killer) takes this worker with it.
exitWithSupervisor(() => shutdown("supervisor gone"));
process.on("SIGINT", () => void shutdown("SIGINT"));
// A crash is logged as one line and exits non-zero, so the supervisor (npm start) restarts this worker.
process.on("uncaughtException", (err) => {
  log.fatal({ err }, "worker crashed");
  process.exit(1);
});
