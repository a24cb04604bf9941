import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { cappedMemberCount, memberCountView } from "@/lib/lists/member-count";
import type { Overview } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

const BACKLOG_CAP = 100_000;
const FIRINGS_CAP = 100_000;

/** The time inside a UUIDv7 (its first 48 bits are Unix milliseconds). */
function uuidV7Time(id: string): number {
  return parseInt(id.replace(/-/g, "").slice(0, 12), 16);
}

type Series = { at: string; client: number; system: number; scheduled: number };

/** Event counts per bucket from the rollup table, zero-filled: an index range of `project_rollups`, never `events`. */
async function eventSeries(db: DbOrTx, projectId: string, unit: "minute" | "hour", buckets: number): Promise<Series[]> {
  const rows = await db.execute<Series>(sql`
    with b as (
      select generate_series(date_trunc(${unit}, now()) - (${buckets - 1} * ('1 ' || ${unit})::interval), date_trunc(${unit}, now()), ('1 ' || ${unit})::interval) as at
    ), r as (
      select date_trunc(${unit}, minute) as at, metric, sum(count)::bigint as n from project_rollups
      where project_id = ${projectId}::uuid and metric in ('events.client', 'events.system', 'events.scheduled')
        and minute >= date_trunc(${unit}, now()) - (${buckets - 1} * ('1 ' || ${unit})::interval)
      group by 1, 2
    )
    select to_char(b.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at,
      coalesce(sum(r.n) filter (where r.metric = 'events.client'), 0)::int as client,
      coalesce(sum(r.n) filter (where r.metric = 'events.system'), 0)::int as system,
      coalesce(sum(r.n) filter (where r.metric = 'events.scheduled'), 0)::int as scheduled
    from b left join r on r.at = b.at group by b.at order by b.at`);
  return [...rows];
}

type MessageHour = Overview["messages_per_hour"][number];

/**
 * Messages per hour over the last 48 hours, zero-filled: an index range of the project's own scope in
 * `message_rollups` (written with every send and report, lib/reports/add-message-rollups.ts), never `messages`.
 */
async function messageSeries(db: DbOrTx, projectId: string): Promise<MessageHour[]> {
  const rows = await db.execute<MessageHour>(sql`
    with b as (
      select generate_series(date_trunc('hour', now()) - interval '47 hours', date_trunc('hour', now()), interval '1 hour') as at
    ), r as (
      select hour, metric, count from message_rollups
      where project_id = ${projectId}::uuid and scope = 'project' and scope_id = ${projectId}
        and metric in ('sent', 'delivered', 'bounced', 'opened', 'clicked')
        and hour >= date_trunc('hour', now()) - interval '47 hours'
    )
    select to_char(b.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at,
      coalesce(sum(r.count) filter (where r.metric = 'sent'), 0)::int as sent,
      coalesce(sum(r.count) filter (where r.metric = 'delivered'), 0)::int as delivered,
      coalesce(sum(r.count) filter (where r.metric = 'bounced'), 0)::int as bounced,
      coalesce(sum(r.count) filter (where r.metric = 'opened'), 0)::int as opened,
      coalesce(sum(r.count) filter (where r.metric = 'clicked'), 0)::int as clicked
    from b left join r on r.hour = b.at group by b.at order by b.at`);
  return [...rows];
}

/**
 * The project overview. Every figure is an index range or a capped count: event and request series and new
 * users come from `project_rollups` (per-minute counters the pipeline and the request log maintain), messages
 * per hour from the project's scope of `message_rollups` (the reports' hourly counters), the
 * intake backlog and firings are counted up to a cap, lag is read from the oldest waiting row's UUIDv7, and
 * list sizes are index-only counts of `list_members` capped at 10,000 each.
 */
export async function getOverview(ctx: ProjectContext): Promise<Overview> {
  const [perMinute, perHour, requests, intake, oldest, firings, lists, newUsers, messagesPerHour] = await Promise.all([
    eventSeries(ctx.db, ctx.projectId, "minute", 60),
    eventSeries(ctx.db, ctx.projectId, "hour", 168),
    ctx.db.execute<{ at: string; accepted: number; rejected: number }>(sql`
      with b as (select generate_series(date_trunc('hour', now()) - interval '23 hours', date_trunc('hour', now()), interval '1 hour') as at),
      r as (
        select date_trunc('hour', minute) as at, metric, sum(count)::bigint as n from project_rollups
        where project_id = ${ctx.projectId}::uuid and metric in ('requests.accepted', 'requests.rejected') and minute >= date_trunc('hour', now()) - interval '23 hours'
        group by 1, 2
      )
      select to_char(b.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at,
        coalesce(sum(r.n) filter (where r.metric = 'requests.accepted'), 0)::int as accepted,
        coalesce(sum(r.n) filter (where r.metric = 'requests.rejected'), 0)::int as rejected
      from b left join r on r.at = b.at group by b.at order by b.at`),
    ctx.db.execute<{ backlog: number; failed: number }>(sql`
      select (select count(*) from (select 1 from event_intake where project_id = ${ctx.projectId}::uuid and failed_at is null limit ${BACKLOG_CAP}) x)::int as backlog,
        (select count(*) from (select 1 from event_intake where project_id = ${ctx.projectId}::uuid and failed_at is not null limit 10000) y)::int as failed`),
    // The primary key is (project_id, id) and ids are UUIDv7: the first row in key order is the oldest.
    ctx.db.execute<{ id: string }>(
      sql`select id from event_intake where project_id = ${ctx.projectId}::uuid and failed_at is null order by id limit 1`,
    ),
    ctx.db.execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from schedule_firings where project_id = ${ctx.projectId}::uuid and state = 'pending'
        and fire_at >= now() and fire_at < now() + interval '24 hours' limit ${FIRINGS_CAP}) x`),
    // Counts capped per list (lib/lists/member-count.ts): lists past the cap tie, by name.
    ctx.db.execute<{ id: string; name: string; kind: "dynamic" | "static"; n: number }>(sql`
      select l.id, l.name, l.kind, ${cappedMemberCount(ctx.projectId, sql`l.id`)} as n from lists l
      where l.project_id = ${ctx.projectId}::uuid order by n desc, l.name limit 5`),
    ctx.db.execute<{ day: string; count: number }>(sql`
      with d as (select generate_series(date_trunc('day', now() at time zone 'UTC') - interval '13 days', date_trunc('day', now() at time zone 'UTC'), interval '1 day') as day)
      select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(sum(r.count), 0)::int as count
      from d left join project_rollups r on r.project_id = ${ctx.projectId}::uuid and r.metric = 'users.created'
        and r.minute >= d.day at time zone 'UTC' and r.minute < (d.day + interval '1 day') at time zone 'UTC'
      group by d.day order by d.day`),
    messageSeries(ctx.db, ctx.projectId),
  ]);
  const backlog = intake[0]?.backlog ?? 0;
  const oldestId = oldest[0]?.id;
  return {
    events_per_minute: perMinute,
    events_per_hour: perHour,
    requests_per_hour: [...requests],
    intake: {
      backlog,
      backlog_capped: backlog >= BACKLOG_CAP,
      failed: intake[0]?.failed ?? 0,
      lag_seconds: oldestId ? Math.max(0, (Date.now() - uuidV7Time(oldestId)) / 1000) : null,
    },
    firings_next_24h: firings[0]?.n ?? 0,
    biggest_lists: lists.map(({ n, ...l }) => ({ ...l, ...memberCountView(n) })),
    new_users_per_day: [...newUsers],
    messages_per_hour: messagesPerHour,
  };
}
