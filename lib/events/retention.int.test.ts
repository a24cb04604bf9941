import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import { systemContext } from "../access/context";
import { createProjectWithOwner } from "../projects/create-project";
import { stopBoss } from "../queue/boss";
import { createTestDatabase } from "../../scripts/test/database";
import { getOverview } from "../overview/get-overview";
import { ensureEventPartitions, listEventPartitions, partitionName, weekStart } from "./partitions";
import { purgeExpiredEvents } from "./retention";

/*
 * Retention over a database that has run for months: the partition before the weekly ones ends 20 weeks
 * ago, and events of three projects lie in weeks made on demand. Project A keeps 30 days, B forever, C 60
 * days. A week only A wrote to is dropped whole; in weeks B or C still keep, A's expired rows go in
 * batches; the schema's counts and the overview's counters match what is left. A database of its own:
 * the purge drops partitions shared by every project of a database.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let db: Db;
const ids: Record<"a" | "b" | "c", string> = { a: "", b: "", c: "" };
const WEEK = 7 * 86_400_000;
const thisWeek = weekStart(new Date());
const weekAgo = (n: number) => new Date(thisWeek.getTime() - n * WEEK);
/** Statements the purge sends (drizzle's logger): its batches are counted from them. */
const sent: { query: string; params: unknown[] }[] = [];

beforeAll(async () => {
  database = await createTestDatabase("relay_retention");
  process.env.DATABASE_URL = database.url;
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  db = drizzle(sql, {
    schema,
    casing: "snake_case",
    logger: { logQuery: (query, params) => void sent.push({ query, params }) },
  }) as unknown as Db;
  for (const k of ["a", "b", "c"] as const) {
    const { project } = await createProjectWithOwner(
      { db },
      { orgName: k, projectName: k, ownerEmail: `${k}-${crypto.randomUUID()}@example.com` },
    );
    ids[k] = project.id;
  }
  await sql`update projects set event_retention_days = case id when ${ids.a}::uuid then 30 when ${ids.c}::uuid then 60 end`;
  // As if partitioning started 20 weeks ago.
  await sql`alter table events detach partition events_before`;
  await sql.unsafe(
    `alter table events attach partition events_before for values from (minvalue) to ('${weekAgo(20).toISOString()}')`,
  );
  const rows = (project: string, name: string, n: number, at: Date) => sql`
    insert into events (project_id, name, data, origin, occurred_at)
    select ${project}::uuid, ${name}, '{"plan": "team"}', 'client', ${at.toISOString()}::timestamptz + g * interval '1 minute'
    from generate_series(1, ${n}) g`;
  await rows(ids.a, "Ancient", 2, new Date("1999-01-01T00:00:00Z"));
  await rows(ids.a, "Old", 5, new Date(weekAgo(15).getTime() + 86_400_000));
  await rows(ids.a, "Mixed", 7, new Date(weekAgo(10).getTime() + 86_400_000));
  await rows(ids.b, "Mixed", 3, new Date(weekAgo(10).getTime() + 86_400_000));
  await rows(ids.a, "Mixed", 4, new Date(weekAgo(6).getTime() + 86_400_000));
  await rows(ids.c, "Mixed", 6, new Date(weekAgo(6).getTime() + 86_400_000));
  await rows(ids.a, "Recent", 2, new Date(Date.now() - 2 * 86_400_000));
  // The schema as the pipeline's step 2 would have counted it: events per name, and one property path.
  await sql`
    insert into event_schema (project_id, event_name, path, types, count, first_seen, last_seen)
    select project_id, name, p.path, '{string}', count(*), min(occurred_at), max(occurred_at)
    from events cross join (values (''), ('plan')) p(path) group by project_id, name, p.path`;
  await sql`
    insert into project_rollups (project_id, metric, minute, count) values
      (${ids.a}, 'events.client', date_trunc('minute', now() - interval '40 days'), 5),
      (${ids.a}, 'events.client', date_trunc('minute', now() - interval '2 days'), 2),
      (${ids.b}, 'events.client', date_trunc('minute', now() - interval '40 days'), 3)`;
}, 60_000);

afterAll(async () => {
  await stopBoss(2_000);
  await sql?.end({ timeout: 2 });
  await database?.drop();
});

const counts = async () =>
  Object.fromEntries(
    (
      await sql`select p.name as project, e.name, count(*)::int as n from events e join projects p on p.id = e.project_id group by 1, 2`
    ).map((r) => [`${r.project}:${r.name}`, r.n]),
  );

describe("event retention", () => {
  it("weeks written before their partition existed are made on demand", async () => {
    await ensureEventPartitions({ db });
    const names = (await listEventPartitions({ db })).map((p) => p.name);
    for (const w of [15, 10, 6]) expect(names).toContain(partitionName(weekAgo(w)));
    const [{ n }] = await sql`select count(*)::int as n from events_default`;
    expect(n).toBe(0);
  });

  it("drops whole partitions no project keeps, deletes a shorter-retention project's rows in batches, keeps the rest", async () => {
    const before = await counts();
    expect(before).toMatchObject({
      "a:Ancient": 2,
      "a:Old": 5,
      "a:Mixed": 11,
      "b:Mixed": 3,
      "c:Mixed": 6,
      "a:Recent": 2,
    });
    sent.length = 0;
    const r = await purgeExpiredEvents({ db }, { batch: 3 });
    expect(r.dropped.sort()).toEqual(["events_before", partitionName(weekAgo(15))].sort());
    // A's Mixed rows: 7 beside B's (batches of 3, 3, 1) and 4 beside C's (3, 1): the delete statements
    // for A in each partition show the batches, not only their total.
    const batchesOfA = (week: number) =>
      sent.filter(
        (s) => s.query.includes(`delete from "${partitionName(weekAgo(week))}" where ctid`) && s.params.includes(ids.a),
      ).length;
    expect([batchesOfA(10), batchesOfA(6)]).toEqual([3, 2]);
    expect(r.deleted).toBe(11);
    expect(await counts()).toEqual({ "b:Mixed": 3, "c:Mixed": 6, "a:Recent": 2 });
    const names = (await listEventPartitions({ db })).map((p) => p.name);
    expect(names).toContain(partitionName(weekAgo(10)));
    expect(names).toContain(partitionName(weekAgo(6)));
    // Nothing more to do: a second run finds nothing.
    expect(await purgeExpiredEvents({ db }, { batch: 3 })).toEqual({ dropped: [], deleted: 0 });
  });

  it("the schema's counts and the overview's counters are true after the purge", async () => {
    const schemaRows = await sql`
      select p.name as project, s.event_name, s.path, s.count::int as count from event_schema s join projects p on p.id = s.project_id
      order by 1, 2, 3`;
    const actual = await counts();
    for (const s of schemaRows) expect(s.count).toBe(actual[`${s.project}:${s.event_name}`] ?? 0);
    const rollups =
      await sql`select p.name as project, r.count::int as count from project_rollups r join projects p on p.id = r.project_id order by 1, 2`;
    expect(rollups.map((r) => `${r.project}:${r.count}`)).toEqual(["a:2", "b:3"]);
    const overview = await getOverview(systemContext(db, ids.a));
    const perHour = overview.events_per_hour.reduce((s, b) => s + b.client, 0);
    expect(perHour).toBe(2);
  });

  it("a write for a time whose partition was dropped still succeeds (the default partition takes it)", async () => {
    await sql`insert into events (project_id, name, occurred_at) values (${ids.b}, 'Late', '1999-06-01T00:00:00Z')`;
    const [row] = await sql`select tableoid::regclass::text as part from events where name = 'Late'`;
    expect(row!.part).toBe("events_default");
  });
});
