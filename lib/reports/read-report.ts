import { sql } from "drizzle-orm";
import type { ReportScope } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { type Funnel, REPORT_METRICS, type Report } from "./schemas";

type Metric = (typeof REPORT_METRICS)[number];
const DELIVERY: Metric[] = ["sent", "delivered", "bounced", "complained"];

/** Counts and rates from totals: delivery figures over sent, engagement over delivered once reports exist. */
export function funnelOf(totals: Partial<Record<Metric, number>>, value: number): Funnel {
  const n = (m: Metric) => totals[m] ?? 0;
  const base = n("delivered") + n("bounced") > 0 ? "delivered" : "sent";
  const rate = (count: number, over: number) => (over > 0 ? count / over : 0);
  const figures = Object.fromEntries(
    REPORT_METRICS.map((m) => [m, { count: n(m), rate: rate(n(m), DELIVERY.includes(m) ? n("sent") : n(base)) }]),
  ) as Record<Metric, { count: number; rate: number }>;
  return { ...figures, conversion_value: value, rate_base: base };
}

/** The metrics' names as a SQL array, for `metric = any(…)`: one index range per metric, not a filter. */
const METRICS_ARRAY = `{${REPORT_METRICS.join(",")}}`;

/**
 * A scope's report from its rollups: the series is hourly for the scope's first 48 counted hours and the
 * rest of the UTC day the 48th is in, then daily (UTC). Ending the hours at a midnight keeps every day whole:
 * ended at the 48th hour, the day it fell in was a point at its midnight that the same midnight's hourly
 * point overwrote (read-report.int.test.ts). Every read is an index range per metric of a key that leads with
 * project, scope and id, bounded whatever the number of messages behind it: the first hour (one probe per
 * metric), the hourly rows up to the end of the day the 48th hour is in, the daily rows of the whole days
 * after it, and the hourly rows of the day `until` cuts (both tables count the same, lib/reports/rollup-rows.ts).
 * Reading every hourly row of the scope's life instead was 38,000 rows for a month of a journey at 1M messages
 * (nine metrics, eight shards, every hour), 5,600 this way.
 */
export async function readReport(
  ctx: ProjectContext,
  input: { scope: ReportScope; scopeId: string; since?: string; until?: string },
): Promise<Report> {
  const key = sql`project_id = ${ctx.projectId}::uuid and scope = ${input.scope} and scope_id = ${input.scopeId}
    and metric = any(${METRICS_ARRAY}::text[])`;
  const since = input.since ?? null;
  const until = input.until ?? null;
  const rows = await queryRows<{ metric: Metric; at: string; unit: "hour" | "day"; n: number; v: number }>(
    ctx.db,
    sql`
    with first as (
      select min(f.hour) as h from unnest(${METRICS_ARRAY}::text[]) as k(metric), lateral (
        select hour from message_rollups
        where project_id = ${ctx.projectId}::uuid and scope = ${input.scope} and scope_id = ${input.scopeId}
          and metric = k.metric
          and (${since}::timestamptz is null or hour >= date_trunc('hour', ${since}::timestamptz))
          and (${until}::timestamptz is null or hour < ${until}::timestamptz)
        order by hour limit 1) f
    ), b as (
      -- Hourly from h to lo (the midnight after the 48th hour, h + 47 hours), daily [lo, hi), hourly [hi, until).
      select h, lo, coalesce(${until}::timestamptz, 'infinity') as until,
        greatest(lo, coalesce(date_trunc('day', ${until}::timestamptz, 'UTC'), 'infinity')) as hi
      from first, lateral (select date_trunc('day', h + interval '47 hours', 'UTC') + interval '1 day' as lo) l
      where h is not null
    ), r as (
      select metric, hour, count, value from message_rollups, b
      where ${key} and hour >= b.h and hour < least(b.lo, b.until)
      union all
      select metric, day, count, value from message_rollups_daily, b
      where ${key} and day >= b.lo and day < b.hi
      union all
      select metric, hour, count, value from message_rollups, b
      where ${key} and hour >= b.hi and hour < b.until
    )
    select r.metric,
      to_char(case when r.hour < b.lo then r.hour else date_trunc('day', r.hour, 'UTC') end
        at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at,
      case when r.hour < b.lo then 'hour' else 'day' end as unit,
      sum(r.count)::bigint::int as n, sum(r.value)::float8 as v
    from r, b group by 1, 2, 3 order by 2`,
  );
  const totals: Partial<Record<Metric, number>> = {};
  let value = 0;
  const points = new Map<string, Report["series"][number]>();
  for (const row of rows) {
    totals[row.metric] = (totals[row.metric] ?? 0) + Number(row.n);
    if (row.metric === "converted") value += Number(row.v);
    let p = points.get(row.at);
    if (!p) {
      p = {
        at: row.at,
        unit: row.unit,
        ...Object.fromEntries(REPORT_METRICS.map((m) => [m, 0])),
      } as Report["series"][number];
      points.set(row.at, p);
    }
    (p as Record<string, unknown>)[row.metric] = Number(row.n);
  }
  return { funnel: funnelOf(totals, value), series: [...points.values()] };
}
