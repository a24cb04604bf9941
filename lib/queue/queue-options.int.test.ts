import { PgBoss } from "pg-boss";
import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase } from "@/db/client";
import { createTestDatabase } from "../../scripts/test/database";
import { getBoss, stopBoss } from "./boss";
import { BOSS_SCHEMA } from "./jobs";

/*
 * pg-boss's createQueue leaves a queue that exists as it was, so a deployment that changes a queue's
 * options (a pipeline step's expiry of a minute, which retries a job whose handler never returns) would
 * keep the old ones for good. The worker brings them up to date when it starts.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
afterAll(async () => {
  await stopBoss(2000);
  await closeDatabase();
  await db?.drop();
});

describe("the worker's queue options", () => {
  it("apply to queues an earlier version created with other options", async () => {
    db = await createTestDatabase();
    const earlier = new PgBoss({ connectionString: db.url, schema: BOSS_SCHEMA, supervise: false, schedule: false });
    await earlier.start();
    await earlier.createQueue("pipeline.journeys", { expireInSeconds: 600, heartbeatSeconds: 10 });
    await earlier.stop({ graceful: false });

    process.env.DATABASE_URL = db.url;
    const boss = await getBoss({ worker: true });
    expect((await boss.getQueue("pipeline.journeys"))?.expireInSeconds).toBe(60);
    expect((await boss.getQueue("lists.rebuild"))?.expireInSeconds).toBe(600);
  });
});
