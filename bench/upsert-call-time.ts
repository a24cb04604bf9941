import { loadavg } from "node:os";
import { closeDatabase, getDb } from "../db/client";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { upsertUser } from "../lib/users/upsert-user";
import { createTestDatabase } from "../scripts/test/database";
import { sql } from "drizzle-orm";
import { systemContext } from "@/lib/access/context";

/**
 * Latency of single upserts one after another (N creations, then N data changes, through upsertUser),
 * beside a `select 1` round trip on the same pool. `CALLS=500 npx tsx bench/upsert-call-time.ts`.
 */
const N = Number(process.env.CALLS ?? 1000);
const db = await createTestDatabase("relay_calltime");
process.env.DATABASE_URL = db.url;
try {
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "t", projectName: "t", ownerEmail: "t@example.com" },
  );
  await upsertUser(systemContext(getDb(), project.id), { identifier: [{ source: "default", external_id: "warm" }] });
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  const time = async (name: string, fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    console.log(`${name.padEnd(48)} ${(((performance.now() - t0) / N) * 1000).toFixed(0).padStart(6)} µs/upsert`);
  };
  await time("upsertUser, new users, sequential", async () => {
    for (let i = 0; i < N; i++)
      await upsertUser(systemContext(getDb(), project.id), {
        identifier: [{ source: "default", external_id: `n-${i}` }],
        email: `n${i}@example.com`,
        data: { i },
      });
  });
  await time("upsertUser, data change, sequential", async () => {
    for (let i = 0; i < N; i++)
      await upsertUser(systemContext(getDb(), project.id), {
        identifier: [{ source: "default", external_id: `n-${i}` }],
        data: { i: i + 1 },
      });
  });
  await time("select 1, sequential (the round-trip floor)", async () => {
    for (let i = 0; i < N; i++) await getDb().execute(sql`select 1`);
  });
} finally {
  await closeDatabase();
  await db.drop();
}
