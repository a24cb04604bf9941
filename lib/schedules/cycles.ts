import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/db/client";

/** A firing made (or claimed) more than this late is skipped and counted, not fired (DESIGN.md section 6). */
export const LATE_LIMIT = "1 hour";

/** At most this many catch-up rounds per call when every firing of a new cycle is already too late. */
const MAX_ROUNDS = 5;

export interface AssignmentKey {
  projectId: string;
  id: string;
}

/**
 * The smallest k >= 0 with `anchor + k * interval > t`, in SQL. Intervals have no division, so k is
 * estimated from epoch seconds (a month counts as 30 days, hence the margins) and then found exactly
 * among a few candidates by real interval arithmetic.
 */
export function nextCycleSql(anchor: SQL, interval: SQL, t: SQL): SQL {
  return sql`(select coalesce(min(k), 0)::int from (
      select extract(epoch from (${t} - ${anchor})) / extract(epoch from ${interval}) as e) est,
      generate_series(greatest(0, floor(est.e * 0.97)::int - 2), greatest(0, ceil(est.e * 1.03)::int + 3)) k
    where ${anchor} + k * ${interval} > ${t})`;
}

/**
 * A list of rows as a SQL relation. Rows travel as one jsonb parameter: drizzle's postgres.js driver
 * cannot bind JS arrays, and one parameter keeps statements cacheable whatever the batch size.
 */
export function rowsSql(rows: Record<string, unknown>[], columns: string): SQL {
  return sql`(select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(${sql.raw(columns)}))`;
}

function keysSql(keys: AssignmentKey[]): SQL {
  return rowsSql(keys.map((k) => ({ project_id: k.projectId, id: k.id })), "project_id uuid, id uuid");
}

/**
 * Makes the current cycle's firings of the given assignments, one per offset of their schedule:
 * `fire_at = occurrence ± offset`. A firing already more than an hour late is stored as skipped.
 * Existing (assignment, offset, cycle) rows are left alone, so this is safe to repeat.
 */
export async function materializeFirings(tx: Tx, keys: AssignmentKey[], now: Date): Promise<void> {
  if (!keys.length) return;
  await tx.execute(sql`
    insert into schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at, state)
    select a.project_id, a.id, o.id, a.cycle, f.fire_at,
           case when f.fire_at < ${now.toISOString()}::timestamptz - ${LATE_LIMIT}::interval then 'skipped' else 'pending' end
    from ${keysSql(keys)} k
    join schedule_assignments a on a.project_id = k.project_id and a.id = k.id
    join schedule_offsets o on o.project_id = a.project_id and o.schedule_id = a.schedule_id
    cross join lateral (select a.occurrence_at + case o.direction when 'after' then o."offset"::interval else -o."offset"::interval end as fire_at) f
    where a.state <> 'fired'
    on conflict do nothing`);
}

/**
 * Closes finished cycles of the given assignments (the caller holds their row locks): a single
 * schedule with nothing pending becomes `fired`; an active recurring one with nothing pending in its
 * current cycle advances to the next occurrence `anchor + k * interval` (never before `now - 1 hour`,
 * so a long outage does not replay every missed cycle) and gets that cycle's firings. Paused ones
 * (`after_next_interval`) stay where they are.
 */
export async function completeCycles(tx: Tx, keys: AssignmentKey[], now: Date): Promise<void> {
  if (!keys.length) return;
  const at = sql`${now.toISOString()}::timestamptz`;
  await tx.execute(sql`
    update schedule_assignments a set state = 'fired', updated_at = ${at}
    from ${keysSql(keys)} k
    where a.project_id = k.project_id and a.id = k.id and a.state = 'active' and a.interval is null
      and not exists (select 1 from schedule_firings f where f.project_id = a.project_id and f.assignment_id = a.id and f.state = 'pending')`);
  let pending = keys;
  for (let round = 0; round < MAX_ROUNDS && pending.length; round++) {
    const advanced = (await tx.execute(sql`
      update schedule_assignments a
      set cycle = n.k, occurrence_at = a.anchor + n.k * a.interval::interval, updated_at = ${at}
      from ${keysSql(pending)} k,
        lateral (select greatest(a2.cycle + 1, ${nextCycleSql(sql`a2.anchor`, sql`a2.interval::interval`, sql`${at} - ${LATE_LIMIT}::interval`)}) as k
                 from schedule_assignments a2 where a2.project_id = k.project_id and a2.id = k.id) n
      where a.project_id = k.project_id and a.id = k.id and a.state = 'active' and a.interval is not null
        and not exists (select 1 from schedule_firings f
                        where f.project_id = a.project_id and f.assignment_id = a.id and f.cycle = a.cycle and f.state = 'pending')
      returning a.project_id as "projectId", a.id`)) as unknown as AssignmentKey[];
    if (!advanced.length) return;
    await materializeFirings(tx, advanced, now);
    pending = advanced;
  }
}
