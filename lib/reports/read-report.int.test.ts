import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { systemContext } from "@/lib/access/context";
import { createTestProject, sql } from "@/scripts/test/helpers";
import { addScopeRollups, type ScopeCount } from "./add-scope-rollups";
import { readReport } from "./read-report";

/*
 * A report reads its scope's first 48 hours (and the rest of the 48th's UTC day) from the hourly rollups and the
 * rest from the daily ones (read-report.ts). Its series and funnel must be what summing the hourly rows
 * alone gives: the rule computed here from the counts written, over windows whose ends fall inside a day
 * and across the 48 hours. The first hour is 21:00, so the 48 hours end inside a day: before the hours ran
 * to its end, that day's point and its midnight's hourly point had one `at`, and one overwrote the other.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let projectId: string;
beforeAll(async () => {
  projectId = (await createTestProject("read-report")).projectId;
});

type Point = { at: string; unit: "hour" | "day"; sent: number; opened: number };

/** The series by the rule of docs/reports.md, from the counts themselves. */
function expected(counts: ScopeCount[], since?: string, until?: string): Point[] {
  const hourOf = (t: string) => Math.floor(Date.parse(t) / HOUR) * HOUR;
  const kept = counts.filter(
    (c) => (!since || hourOf(c.at) >= hourOf(since)) && (!until || hourOf(c.at) < Date.parse(until)),
  );
  const first = Math.min(...kept.map((c) => hourOf(c.at)));
  // Hourly to the end of the UTC day the 48th hour is in.
  const lo = Math.floor((first + 47 * HOUR) / DAY) * DAY + DAY;
  const points = new Map<string, Point>();
  for (const c of kept) {
    const h = hourOf(c.at);
    const unit = h < lo ? "hour" : "day";
    const at = new Date(unit === "hour" ? h : Math.floor(h / DAY) * DAY).toISOString().replace(".000Z", "Z");
    const p = points.get(at) ?? { at, unit, sent: 0, opened: 0 };
    p[c.metric as "sent" | "opened"]++;
    points.set(at, p);
  }
  return [...points.values()].sort((a, b) => a.at.localeCompare(b.at));
}

describe("readReport", () => {
  it("counts by the hour for 48 hours and the rest of that day, then by the day, as the hourly rows alone would", async () => {
    const scopeId = crypto.randomUUID();
    // From 21:00 UTC, so the 48 hours end three hours before a midnight: that day is read partly by the hour.
    const start = Date.parse("2026-10-01T21:00:00Z");
    const counts: ScopeCount[] = [];
    for (let h = 0; h < 150; h += 1)
      for (let k = 0; k <= h % 3; k++) {
        const at = new Date(start + h * HOUR + k * 7 * 60_000).toISOString();
        counts.push({ project_id: projectId, scope: "template", scope_id: scopeId, metric: "sent", at });
        if ((h + k) % 4 === 0)
          counts.push({ project_id: projectId, scope: "template", scope_id: scopeId, metric: "opened", at });
      }
    await addScopeRollups({ db: getDb() }, counts);
    // Six days: the series has daily points, read from the daily rows.
    expect(expected(counts).filter((p) => p.unit === "day").length).toBeGreaterThan(3);
    const ctx = systemContext(getDb(), projectId);
    const iso = (ms: number) => new Date(start + ms).toISOString();
    const windows: { since?: string; until?: string }[] = [
      {},
      { since: iso(7.5 * HOUR) },
      { until: iso(100.5 * HOUR) },
      // Ends before the daily rows begin.
      { since: iso(2 * HOUR), until: iso(40.25 * HOUR) },
      // Ends on a midnight, and starts at one.
      { since: iso(27 * HOUR), until: iso(123 * HOUR) },
      { since: iso(3 * HOUR), until: iso(130.5 * HOUR) },
    ];
    for (const w of windows) {
      const report = await readReport(ctx, { scope: "template", scopeId, ...w });
      const want = expected(counts, w.since, w.until);
      expect(
        report.series.map((p) => {
          const { at, unit, sent, opened } = p as Point;
          return { at, unit, sent, opened };
        }),
        JSON.stringify(w),
      ).toEqual(want);
      expect(report.funnel.sent.count).toBe(want.reduce((n, p) => n + p.sent, 0));
      expect(report.funnel.opened.count).toBe(want.reduce((n, p) => n + p.opened, 0));
    }
    // The daily rows hold exactly the hourly rows' sums.
    const [diff] = await sql`
      select count(*)::int as n from (
        select metric, date_trunc('day', hour, 'UTC') as day, shard, sum(count) as n from message_rollups
        where project_id = ${projectId} and scope = 'template' and scope_id = ${scopeId} group by 1, 2, 3
        except
        select metric, day, shard, count from message_rollups_daily
        where project_id = ${projectId} and scope = 'template' and scope_id = ${scopeId}) d`;
    expect(diff!.n).toBe(0);
  });

  it("answers an empty report for a scope with nothing counted", async () => {
    const report = await readReport(systemContext(getDb(), projectId), {
      scope: "broadcast",
      scopeId: crypto.randomUUID(),
    });
    expect(report.series).toEqual([]);
    expect(report.funnel.sent.count).toBe(0);
  });
});
