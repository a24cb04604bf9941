import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { partitionName, weekStart } from "../lib/events/partitions";
import { createTestDatabase } from "../scripts/test/database";
import { startWorker, waitFor, type TestWorker } from "../scripts/test/worker";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Db } from "../db/client";
import * as schema from "../db/schema";
import { startRetentionLoop } from "./retention-loop";

/*
 * The worker's events upkeep end to end: a real worker with RETENTION_INTERVAL=1s makes the weeks ahead,
 * moves rows that waited in the default partition into a week made on demand, and purges: the expired
 * week of a 7-day project is dropped whole, while a forever project's old event stays. A database of its
 * own (the worker drops partitions, which every project of a database shares).
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let worker: TestWorker | undefined;
const WEEK = 7 * 86_400_000;
const thisWeek = weekStart(new Date());
const weekAgo = (n: number) => new Date(thisWeek.getTime() - n * WEEK);

beforeAll(async () => {
  database = await createTestDatabase("relay_retention_loop");
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const [org] = await sql`insert into admin_orgs (name) values ('o') returning id`;
  const [short] =
    await sql`insert into projects (org_id, name, event_retention_days) values (${org!.id}, 'short', 7) returning id`;
  const [forever] = await sql`insert into projects (org_id, name) values (${org!.id}, 'forever') returning id`;
  await sql`alter table events detach partition events_before`;
  await sql.unsafe(
    `alter table events attach partition events_before for values from (minvalue) to ('${weekAgo(10).toISOString()}')`,
  );
  const at = (w: number) => new Date(weekAgo(w).getTime() + 86_400_000).toISOString();
  await sql`insert into events (project_id, name, occurred_at) values
    (${short!.id}, 'expired', ${at(5)}), (${short!.id}, 'expired', ${at(5)}),
    (${short!.id}, 'expired-beside', ${at(3)}), (${forever!.id}, 'kept', ${at(3)}),
    (${short!.id}, 'fresh', now())`;
  worker = await startWorker(database.url, { RETENTION_INTERVAL: "1s" });
}, 240_000);

afterAll(async () => {
  await worker?.stop();
  await sql?.end({ timeout: 2 });
  await database?.drop();
});

describe("the worker's events upkeep", () => {
  it("makes the weeks ahead and on demand, then drops or deletes what expired", async () => {
    const names = async () =>
      (
        await sql`select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'events'::regclass`
      ).map((r) => r.relname as string);
    await waitFor(async () => (await names()).includes(partitionName(weekAgo(-4))), 60_000, "the weeks ahead");
    await waitFor(
      async () => (await sql`select 1 from events where name like 'expired%'`).length === 0,
      60_000,
      "the expired events purged",
    );
    const left = await sql`select name, tableoid::regclass::text as part from events order by name`;
    expect(left.map((r) => r.name)).toEqual(["fresh", "kept"]);
    // The week only the 7-day project wrote to went whole; the week the forever project keeps stayed.
    expect(await names()).not.toContain(partitionName(weekAgo(5)));
    expect(left.find((r) => r.name === "kept")!.part).toBe(partitionName(weekAgo(3)));
    expect((await sql`select count(*)::int as n from events_default`)[0]!.n).toBe(0);
  });

  it("stops at once when told to during its upkeep, not when the interval ends", async () => {
    const db = drizzle(sql, { schema, casing: "snake_case" }) as unknown as Db;
    const loop = startRetentionLoop(db, 600_000);
    // Told before the first upkeep's queries are back, as a SIGTERM right after a worker starts (the stop
    // found no timer to clear, and the loop then slept the whole interval).
    const t = Date.now();
    await loop.stop();
    expect(Date.now() - t).toBeLessThan(15_000);
  }, 20_000);
});
