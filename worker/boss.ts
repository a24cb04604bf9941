import { PgBoss } from "pg-boss";
import { BOSS_SCHEMA, QUEUES, type QueueName } from "@/lib/queue/jobs";

export async function startBoss(url: string): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: url, schema: BOSS_SCHEMA, application_name: "relay-worker" });
  boss.on("error", (err) => console.error("[worker] pg-boss error", err));
  await boss.start();
  for (const name of Object.keys(QUEUES) as QueueName[]) await boss.createQueue(name);
  return boss;
}
