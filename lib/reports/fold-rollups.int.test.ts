import { sql as dsql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { systemContext } from "@/lib/access/context";
import { createTestProject, sql } from "@/scripts/test/helpers";
import { ROLLUP_SHARDS } from "./add-message-rollups";
import { foldRollups } from "./fold-rollups";
import { readReport } from "./read-report";
import { upsertRollups } from "./rollup-rows";

/*
 * Folding the shards of closed hours and days (fold-rollups.ts) while writers keep adding to the same
 * keys, in every shard, in closed hours and in the open one: every count written is in the rollups once,
 * each closed hour and day is one folded row, the open hour keeps its shards, and the report reads the
 * totals the writers wrote.
 */
const HOUR = 3_600_000;
let projectId: string;
beforeAll(async () => {
  projectId = (await createTestProject("fold-rollups")).projectId;
});

type Row = { scope_id: string; metric: string; hour: string; shard: number; count: number };

/** One writer's statement: rows of several keys and shards, as add-message-rollups.ts writes them. */
const write = (rows: Row[]) =>
  getDb().execute(
    upsertRollups(dsql`
    select ${projectId}::uuid as project_id, 'template' as scope, r.scope_id, r.metric, r.hour, r.shard::smallint,
      r.count::bigint, r.count::float8 as value
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as r(scope_id text, metric text, hour timestamptz, shard int, count int)`),
  );

describe("foldRollups", () => {
  it("moves every count of a closed hour or day into one row while writers add to the same keys", async () => {
    const scopes = [crypto.randomUUID(), crypto.randomUUID()];
    const metrics = ["sent", "opened"];
    const now = Math.floor(Date.now() / HOUR) * HOUR;
    // The open hour and closed ones back to the day before yesterday, so closed days are folded too.
    const hours = [0, 2, 3, 5, 9, 26, 30, 47, 50].map((h) => new Date(now - h * HOUR).toISOString());
    const expected = new Map<string, number>();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const batch = (): Row[] => {
      const byKey = new Map<string, Row>();
      for (let i = 0; i < 12; i++) {
        const row = {
          scope_id: scopes[random(scopes.length)]!,
          metric: metrics[random(metrics.length)]!,
          hour: hours[random(hours.length)]!,
          shard: random(ROLLUP_SHARDS),
          count: 1 + random(3),
        };
        const k = `${row.scope_id}|${row.metric}|${row.hour}|${row.shard}`;
        const had = byKey.get(k);
        if (had) had.count += row.count;
        else byKey.set(k, row);
      }
      return [...byKey.values()];
    };
    const counted = (rows: Row[]) => {
      for (const r of rows) {
        const k = `${r.scope_id}|${r.metric}|${r.hour}`;
        expected.set(k, (expected.get(k) ?? 0) + r.count);
      }
    };
    for (let i = 0; i < 40; i++) {
      const rows = batch();
      await write(rows);
      counted(rows);
    }

    // Four writers, each statement in its own transaction, beside folds in small batches (many
    // transactions, each locking a few keys) until the writers are done.
    let writing = true;
    let folds = 0;
    const writers = Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 60; i++) {
        const rows = batch();
        await write(rows);
        counted(rows);
      }
    });
    const folder = (async () => {
      while (writing) folds += (await foldRollups({ db: getDb() }, { batch: 5 })) > 0 ? 1 : 0;
    })();
    await Promise.all(writers).finally(() => {
      writing = false;
    });
    await folder;
    expect(folds).toBeGreaterThan(0);
    await foldRollups({ db: getDb() });

    const rows = await sql<
      { scope_id: string; metric: string; hour: string; rows: number; n: number; folded: number }[]
    >`
      select scope_id, metric, hour, count(*)::int as rows, sum(count)::int as n, count(*) filter (where folded)::int as folded
      from message_rollups where project_id = ${projectId} group by 1, 2, 3`;
    const got = new Map(rows.map((r) => [`${r.scope_id}|${r.metric}|${new Date(r.hour).toISOString()}`, r]));
    expect(got.size).toBe(expected.size);
    for (const [k, n] of expected) {
      const r = got.get(k)!;
      expect(r.n, k).toBe(n);
      const open = k.endsWith(hours[0]!);
      // A closed hour is one folded row; the open hour keeps its shards.
      if (open) expect(r.folded, k).toBe(0);
      else expect([r.rows, r.folded], k).toEqual([1, 1]);
    }
    // The daily rows: the same totals per day, one folded row for each closed day.
    const days = await sql<
      { scope_id: string; metric: string; day: string; rows: number; n: number; folded: number }[]
    >`
      select scope_id, metric, day, count(*)::int as rows, sum(count)::int as n, count(*) filter (where folded)::int as folded
      from message_rollups_daily where project_id = ${projectId} group by 1, 2, 3`;
    const perDay = new Map<string, number>();
    for (const [k, n] of expected) {
      const [scope, metric, hour] = k.split("|");
      const d = `${scope}|${metric}|${hour!.slice(0, 10)}`;
      perDay.set(d, (perDay.get(d) ?? 0) + n);
    }
    const today = new Date(Date.now() - HOUR).toISOString().slice(0, 10);
    expect(days.length).toBe(perDay.size);
    for (const d of days) {
      const day = new Date(d.day).toISOString().slice(0, 10);
      const k = `${d.scope_id}|${d.metric}|${day}`;
      expect(d.n, k).toBe(perDay.get(k));
      if (day < today) expect([d.rows, d.folded], k).toEqual([1, 1]);
    }
    // The report sums what the writers wrote.
    const ctx = systemContext(getDb(), projectId);
    for (const scopeId of scopes) {
      const report = await readReport(ctx, { scope: "template", scopeId });
      for (const metric of metrics) {
        const want = [...expected]
          .filter(([k]) => k.startsWith(`${scopeId}|${metric}|`))
          .reduce((a, [, n]) => a + n, 0);
        expect(report.funnel[metric as "sent" | "opened"].count).toBe(want);
      }
    }
  });
});
