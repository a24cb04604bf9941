import { PgBoss } from "pg-boss";
import { getQueueSql } from "@/db/client";
import { mailRetryPolicy } from "@/lib/mail/retry-policy";
import { log } from "@/lib/observability/logger";
import { BOSS_SCHEMA, QUEUES, type QueueName } from "./jobs";
import { poolAdapter } from "./pool-adapter";

/**
 * Queue options: a heartbeat so a SIGKILLed worker's jobs are retried within seconds, and generous
 * retries with backoff (handlers are idempotent, so retrying is always safe).
 */
const QUEUE_OPTIONS = {
  heartbeatSeconds: 10,
  retryLimit: 20,
  retryDelay: 1,
  retryBackoff: true,
  retryDelayMax: 30,
  expireInSeconds: 600,
};

/**
 * A pipeline step decides one fetched batch in well under a second. A step job still active after a minute
 * has a handler that will not return (a statement lost with its connection in a failover, say) while its
 * heartbeat goes on: supervision fails it at its expiry and it is retried, harmlessly, since the step's
 * done-marker makes a second run of a finished batch a no-op. The long, resumable jobs keep the default.
 */
const PIPELINE_STEP = { expireInSeconds: 60 };

/** Queues whose retries follow another clock than the pipeline's: mail waits out an SMTP outage of a day. */
const QUEUE_OVERRIDES: Partial<Record<QueueName, Partial<typeof QUEUE_OPTIONS> & { retryDelayMax?: number }>> = {
  "mail.invite": mailRetryPolicy(),
  "pipeline.schema": PIPELINE_STEP,
  "pipeline.lists": PIPELINE_STEP,
  "pipeline.journeys": PIPELINE_STEP,
  "pipeline.destinations": PIPELINE_STEP,
};

let current: Promise<PgBoss> | undefined;

/**
 * The process's pg-boss instance. The worker starts it with supervision (it works the queues); any other
 * process (the web app, the CLI) gets a send-only instance on its first `enqueue`: no supervision, no
 * cron, a pool of one. Either way every queue exists before the first send, so a job requested before
 * any worker ever started is not refused.
 */
export function getBoss(options: { worker?: boolean } = {}): Promise<PgBoss> {
  current ??= startBoss(options.worker ?? false).catch((err) => {
    current = undefined;
    throw err;
  });
  return current;
}

async function startBoss(worker: boolean): Promise<PgBoss> {
  const boss = new PgBoss({
    // postgres.js, like every connection of Relay (lib/queue/pool-adapter.ts): it follows a multi-host
    // DATABASE_URL to the primary. Six connections in the worker, one in a process that only sends.
    db: poolAdapter(getQueueSql(worker ? 6 : 1)),
    schema: BOSS_SCHEMA,
    ...(worker
      ? // Supervision every few seconds (default 60) so a dead worker's jobs come back within seconds.
        { superviseIntervalSeconds: 5, monitorIntervalSeconds: 5 }
      : { supervise: false, schedule: false }),
  });
  boss.on("error", (err) => log.error({ err }, "pg-boss error"));
  // pg-boss's own warnings: a handler that outran its job's expiry (its worker slot stays held until it
  // returns), a queue over its backlog threshold, slow maintenance.
  boss.on("warning", (warning) => log.warn({ warning }, "pg-boss warning"));
  await boss.start();
  for (const name of Object.keys(QUEUES) as QueueName[]) {
    const options = { ...QUEUE_OPTIONS, ...QUEUE_OVERRIDES[name] };
    await boss.createQueue(name, options);
    // createQueue leaves an existing queue as it was: the worker brings its options up to date.
    if (worker) await boss.updateQueue(name, options);
  }
  return boss;
}

/** Stops this process's instance, if any (graceful: the worker's active jobs finish or return to the queue). */
export async function stopBoss(timeout = 20_000): Promise<void> {
  const boss = await current?.catch(() => undefined);
  current = undefined;
  await boss?.stop({ graceful: true, timeout });
}
