import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { systemContext } from "@/lib/access/context";
import { createTestDatabase } from "../../scripts/test/database";
import { projectIn, type SentQuery } from "../../scripts/test/in-process";
import { listEvents, listEventsQuery } from "./list-events";

/**
 * Newest-first reads of events must walk an index in order, not sort the project's events: the time
 * indexes were once declared DESC NULLS LAST, which ORDER BY … DESC (NULLS FIRST) does not match, and
 * every page of the events list sorted every row (db/migrations/0020_ascending_time_indexes.sql).
 * The plans checked are of the page statements listEvents itself sends, captured from drizzle's logger.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
const sent: SentQuery[] = [];
let db: Db;
let projectId: string;
const userId = "0196f000-0000-7000-8000-000000000007";

beforeAll(async () => {
  database = await createTestDatabase("relay_list_events");
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  ({
    db,
    ctx: { projectId },
  } = await projectIn(sql, { sent }));
  // 20,000 events over ten names and a hundred users, a second apart, then fresh statistics.
  await sql`
    insert into events (project_id, id, name, user_id, data, origin, occurred_at)
    select ${projectId}::uuid, gen_random_uuid(), 'e' || (i % 10),
      case when i % 100 = 7 then ${userId}::uuid else gen_random_uuid() end, '{}', 'client', now() - i * interval '1 second'
    from generate_series(1, 20000) i`;
  await sql`analyze events`;
}, 60_000);

afterAll(async () => {
  await sql?.end({ timeout: 2 });
  await database?.drop();
});

/** The plan of the last statement listEvents sent, as EXPLAIN's JSON tree flattened to node descriptions. */
async function planOfLastList(query: Record<string, string>) {
  sent.length = 0;
  const page = await listEvents(systemContext(db, projectId), listEventsQuery.parse(query));
  // The page's own statement (the labels of who each event is about are read after it).
  const last = sent.filter((s) => s.query.includes('from "events"')).at(-1)!;
  const [{ "QUERY PLAN": plan }] = await sql.unsafe<{ "QUERY PLAN": { Plan: PlanNode }[] }[]>(
    `explain (format json) ${last.query}`,
    last.params as never[],
  );
  // `events` is partitioned (lib/events/partitions.ts): a partition's index is named by its partitioned index.
  const parentIndex = new Map(
    (
      await sql<{ child: string; parent: string }[]>`
        select c.relname as child, p.relname as parent from pg_inherits i
        join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relkind = 'I'`
    ).map((r) => [r.child, r.parent]),
  );
  const nodes: string[] = [];
  const walk = (n: PlanNode) => {
    const index = n["Index Name"] && (parentIndex.get(n["Index Name"]) ?? n["Index Name"]);
    nodes.push(`${n["Node Type"]}${index ? ` ${index}` : ""}${n["Scan Direction"] ? ` ${n["Scan Direction"]}` : ""}`);
    n.Plans?.forEach(walk);
  };
  walk(plan[0]!.Plan);
  return { page, nodes };
}
type PlanNode = { "Node Type": string; "Index Name"?: string; "Scan Direction"?: string; Plans?: PlanNode[] };

describe("listing events newest first", () => {
  it("reads a project's page backward along the time index, with no sort and no sequential scan", async () => {
    const { page, nodes } = await planOfLastList({ limit: "50" });
    expect(page.data).toHaveLength(50);
    expect(nodes).toContain("Index Scan events_project_time_idx Backward");
    expect(nodes.filter((n) => /Sort|Seq Scan/.test(n))).toEqual([]);
  });

  it("reads a name's and a user's page backward along their indexes (only ties on the time are sorted)", async () => {
    const byName = await planOfLastList({ limit: "50", name: "e3" });
    expect(byName.page.data.every((e) => e.name === "e3")).toBe(true);
    expect(byName.nodes).toContain("Index Scan events_name_idx Backward");
    expect(byName.nodes.filter((n) => /^(Sort|Seq Scan)/.test(n))).toEqual([]);
    const byUser = await planOfLastList({ limit: "50", user_id: userId });
    expect(byUser.page.data).toHaveLength(50);
    expect(byUser.nodes).toContain("Index Scan events_user_idx Backward");
    expect(byUser.nodes.filter((n) => /^(Sort|Seq Scan)/.test(n))).toEqual([]);
  });
});
