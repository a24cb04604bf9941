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

/**
 * A scope's report from its hourly rollups: an index range of `message_rollups` (its key leads with
 * project, scope and id), whatever the number of messages behind it. The series is hourly for the first
 * 48 hours from the scope's first counted hour, then daily.
 */
export async function readReport(
  ctx: ProjectContext,
  input: { scope: ReportScope; scopeId: string; since?: string; until?: string },
): Promise<Report> {
  const rows = await queryRows<{ metric: Metric; at: string; unit: "hour" | "day"; n: number; v: number }>(
    ctx.db,
    sql`
    with r as (
      select metric, hour, count, value from message_rollups
      where project_id = ${ctx.projectId}::uuid and scope = ${input.scope} and scope_id = ${input.scopeId}
        and (${input.since ?? null}::timestamptz is null or hour >= date_trunc('hour', ${input.since ?? null}::timestamptz))
        and (${input.until ?? null}::timestamptz is null or hour < ${input.until ?? null}::timestamptz)
    ), first as (select min(hour) as h from r)
    select r.metric,
      to_char(case when r.hour < first.h + interval '48 hours' then r.hour else date_trunc('day', r.hour) end
        at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at,
      case when r.hour < first.h + interval '48 hours' then 'hour' else 'day' end as unit,
      sum(r.count)::bigint::int as n, sum(r.value)::float8 as v
    from r, first group by 1, 2, 3 order by 2`,
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
