import { PgBoss } from "pg-boss";
import { BOSS_SCHEMA, QUEUES, type QueueName } from "@/lib/queue/jobs";
import { log } from "@/lib/observability/logger";

/**
 * Queue options: a heartbeat so a SIGKILLed worker's jobs are retried within seconds, and generous
 * retries with backoff (handlers are idempotent, so retrying is always safe).
 */
const QUEUE_OPTIONS = { heartbeatSeconds: 10, retryLimit: 20, retryDelay: 1, retryBackoff: true, retryDelayMax: 30, expireInSeconds: 600 };

export async function startBoss(url: string): Promise<PgBoss> {
  // Supervision every few seconds (default 60) so a dead worker's jobs come back within seconds.
  const boss = new PgBoss({
    connectionString: url,
    schema: BOSS_SCHEMA,
    application_name: "relay-worker",
    max: 6,
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
  });
  boss.on("error", (err) => log.error({ err }, "pg-boss error"));
  await boss.start();
  for (const name of Object.keys(QUEUES) as QueueName[]) await boss.createQueue(name, QUEUE_OPTIONS);
  return boss;
}
