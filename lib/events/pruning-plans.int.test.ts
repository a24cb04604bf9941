import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql as dsql } from "drizzle-orm";
import postgres from "postgres";
import type { Db } from "../../db/client";
import type { ProjectContext } from "../access/context";
import { compileRule } from "../lists/rules";
import { loadEvents } from "../pipeline/run-step";
import { stopBoss } from "../queue/boss";
import { createTestDatabase } from "../../scripts/test/database";
import { projectIn, type SentQuery } from "../../scripts/test/in-process";
import { listEvents, listEventsQuery } from "./list-events";
import { ensureEventPartitions, partitionName, weekStart } from "./partitions";

/*
 * Partition pruning: the statements the pipeline and the console send for a time range read only the
 * partitions of that range (and the default partition, which holds only what no week does). Checked on
 * the statements the real functions send (captured from drizzle's logger), run under EXPLAIN ANALYZE:
 * a partition counts as read when a scan of it ran at least once. A database of its own, laid out as
 * after 20 weeks of use with an event in every week.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let db: Db;
let ctx: ProjectContext<Db>;
const sent: SentQuery[] = [];
const WEEK = 7 * 86_400_000;
const thisWeek = weekStart(new Date());
const weekAgo = (n: number) => new Date(thisWeek.getTime() - n * WEEK);
const userId = "0196f000-0000-7000-8000-0000000000aa";

beforeAll(async () => {
  database = await createTestDatabase("relay_pruning");
  process.env.DATABASE_URL = database.url;
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  ({ db, ctx } = await projectIn(sql, { sent }));
  await sql`alter table events detach partition events_before`;
  await sql.unsafe(
    `alter table events attach partition events_before for values from (minvalue) to ('${weekAgo(20).toISOString()}')`,
  );
  await sql`insert into users (project_id, id) values (${ctx.projectId}, ${userId})`;
  // Ten events a week for 25 weeks back, one user's.
  await sql`
    insert into events (project_id, name, user_id, data, origin, occurred_at)
    select ${ctx.projectId}::uuid, 'Purchased', ${userId}::uuid, '{}', 'client', now() - (h || ' hours')::interval
    from generate_series(0, 25 * 168, 17) h`;
  await ensureEventPartitions({ db });
  await sql`analyze events`;
}, 60_000);

afterAll(async () => {
  await stopBoss(2_000);
  await sql?.end({ timeout: 2 });
  await database?.drop();
});

type PlanNode = { "Relation Name"?: string; "Actual Loops"?: number; Plans?: PlanNode[] };

/** The partitions of `events` a statement read: relations whose scan ran at least once under EXPLAIN ANALYZE. */
async function partitionsRead(statement: { query: string; params: unknown[] }): Promise<string[]> {
  const [{ "QUERY PLAN": plan }] = await sql.unsafe<{ "QUERY PLAN": { Plan: PlanNode }[] }[]>(
    `explain (analyze, format json) ${statement.query}`,
    statement.params as never[],
  );
  const read = new Set<string>();
  const walk = (n: PlanNode) => {
    if (n["Relation Name"]?.startsWith("events_") && (n["Actual Loops"] ?? 0) > 0) read.add(n["Relation Name"]);
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(plan[0]!.Plan);
  return [...read].sort();
}

/**
 * The last statement on `events` that `fn` sends (drizzle's logger): listEvents reads the labels of who
 * each event is about after its page, and those statements read no partition.
 */
async function lastStatement(fn: () => Promise<unknown>) {
  sent.length = 0;
  await fn();
  return sent.filter((s) => /\bfrom "?events"?\b/i.test(s.query)).at(-1)!;
}

/** The weekly partitions from `weeks` ago through the ones made ahead, and the default one. */
async function recentPartitions(weeks: number): Promise<string[]> {
  const rows = await sql`select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'events'::regclass and (c.relname >= ${partitionName(weekAgo(weeks))} or c.relname = 'events_default')`;
  return rows.map((r) => r.relname as string).sort();
}

describe("queries on events read only the partitions of their time range", () => {
  it("the console's events list with `since` (live events filtered by time)", async () => {
    const since = new Date(Date.now() - 10 * 86_400_000);
    const stmt = await lastStatement(() =>
      listEvents(ctx, listEventsQuery.parse({ since: since.toISOString(), limit: "100" })),
    );
    const read = await partitionsRead(stmt);
    // This week's partition holds events of the range: it is read, and nothing older than the range is.
    expect(read).toContain(partitionName(thisWeek));
    expect(read).not.toContain("events_before");
    expect(await recentPartitions(2)).toEqual(expect.arrayContaining(read));
  });

  it("a list rule with within_days (pipeline step 3, the list builder and its preview)", async () => {
    const rule = compileRule(
      { event: { name: "Purchased", scope: "user", at_least: 1, within_days: 14 } },
      ctx.projectId,
    );
    const stmt = await lastStatement(() =>
      db.execute(dsql`select count(*) from users u where u.project_id = ${ctx.projectId}::uuid and ${rule}`),
    );
    const read = await partitionsRead(stmt);
    expect(read).toContain(partitionName(thisWeek));
    expect(read).not.toContain("events_before");
    expect(await recentPartitions(3)).toEqual(expect.arrayContaining(read));
    // Without a window the rule needs every partition: the check above is not vacuous.
    const all = compileRule({ event: { name: "Purchased", scope: "user", at_least: 1000 } }, ctx.projectId);
    const everything = await partitionsRead(
      await lastStatement(() =>
        db.execute(dsql`select count(*) from users u where u.project_id = ${ctx.projectId}::uuid and ${all}`),
      ),
    );
    expect(everything).toContain("events_before");
    expect(everything).toContain(partitionName(weekAgo(10)));
  });

  it("loading a step job's events (steps 3-4) by id from its `since`", async () => {
    const recent = await sql`select id, occurred_at from events where project_id = ${ctx.projectId}
      and occurred_at > now() - interval '3 days' order by occurred_at`;
    const ids = recent.map((r) => r.id as string);
    const since = new Date(recent[0]!.occurred_at as string).toISOString();
    const stmt = await lastStatement(() => loadEvents(ctx, { ids, since }));
    const read = await partitionsRead(stmt);
    // The newest event's partition is read (its row is found there), and nothing older than a week back.
    expect(read).toContain(partitionName(weekStart(new Date(recent.at(-1)!.occurred_at as string))));
    expect(await recentPartitions(1)).toEqual(expect.arrayContaining(read));
    expect((await loadEvents(ctx, { ids, since })).map((e) => e.id).sort()).toEqual([...ids].sort());
    // An id older than `since` (a writer that left its time out) is still found, by a second probe.
    const [old] =
      await sql`select id from events where project_id = ${ctx.projectId} and occurred_at < now() - interval '60 days' limit 1`;
    expect((await loadEvents(ctx, { ids: [...ids, old!.id], since })).map((e) => e.id)).toContain(old!.id);
  });
});
