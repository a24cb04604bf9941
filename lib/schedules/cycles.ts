import { sql, type SQL } from "drizzle-orm";
import { queryRows, rowsById, tidArray, uuidArray } from "@/lib/db/sql";
import type { AppContext } from "@/lib/access/context";

/** A firing made (or claimed) more than this late is skipped and counted, not fired (docs/decisions/0023). */
export const LATE_LIMIT = "1 hour";

/** At most this many catch-up rounds per call when every firing of a new cycle is already too late. */
const MAX_ROUNDS = 5;

export interface AssignmentKey {
  projectId: string;
  id: string;
}

export function byProject(keys: AssignmentKey[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const k of keys) out.set(k.projectId, [...(out.get(k.projectId) ?? []), k.id]);
  return out;
}

/**
 * The smallest k >= 0 with `anchor + k * interval > t`, in SQL, as a bigint in O(1). Intervals have no
 * division, so k is estimated from epoch seconds (a month counts as 30 days), corrected twice by
 * measuring how far the estimate's own occurrence lands from t (each pass shrinks the error of a month
 * by a factor of about 70), then found exactly among seven candidates by real interval arithmetic. The
 * work no longer grows with the number of cycles since the anchor.
 */
export function nextCycleSql(anchor: SQL, interval: SQL, t: SQL): SQL {
  const step = (k: SQL) =>
    sql`greatest(0, ${k} + floor(extract(epoch from (${t} - (${anchor} + ${k} * ${interval}))) / extract(epoch from ${interval})))::bigint`;
  return sql`(select coalesce(
        (select min(k) from generate_series(greatest(0, e2.k2 - 3), e2.k2 + 3) k where ${anchor} + k * ${interval} > ${t}),
        e2.k2 + 4)::bigint
      from (select ${step(sql`0::bigint`)} as k0) e0,
      lateral (select ${step(sql`e0.k0`)} as k1) e1,
      lateral (select ${step(sql`e1.k1`)} as k2) e2)`;
}

/**
 * Makes the current cycle's firings of the given assignments, one per offset of their schedule:
 * `fire_at` is the occurrence plus the offset, or minus it for an offset before. A firing already more
 * than an hour late is stored as skipped. Existing (assignment, offset, cycle) rows are left alone, so
 * this is safe to repeat. Takes an AppContext: each key names its own project, and the firing loop
 * closes cycles of several at once.
 */
export async function materializeFirings(
  ctx: AppContext,
  { keys, now }: { keys: AssignmentKey[]; now: Date },
): Promise<void> {
  for (const [projectId, ids] of byProject(keys)) {
    // The caller holds the assignments' row locks; the offsets are key-share locked here
    // (db/migrations/0019_schedule_cascade_triggers.sql). Assignments by key probe (rowsById).
    await ctx.db.execute(sql`
      with a as (select a.* from ${rowsById("schedule_assignments", projectId, uuidArray(ids), "a")} where a.state <> 'fired'),
      o as (
        select o.project_id, o.schedule_id, o.id, o.direction, o."offset" from schedule_offsets o
        where o.project_id = ${projectId} and o.schedule_id in (select distinct schedule_id from a)
        for key share of o)
      insert into schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at, state)
      select a.project_id, a.id, o.id, a.cycle, f.fire_at,
             case when f.fire_at < ${now.toISOString()}::timestamptz - ${LATE_LIMIT}::interval then 'skipped' else 'pending' end
      from a
      join o on o.project_id = a.project_id and o.schedule_id = a.schedule_id
      cross join lateral (select a.occurrence_at + case o.direction when 'after' then o."offset"::interval else -o."offset"::interval end as fire_at) f
      on conflict do nothing`);
  }
}

/**
 * Closes finished cycles of the given assignments (the caller holds their row locks): a single
 * schedule with nothing pending becomes `fired`; an active recurring one with nothing pending in its
 * current cycle advances to the next occurrence `anchor + k * interval` (never before `now - 1 hour`,
 * so a long outage does not replay every missed cycle) and gets that cycle's firings. Paused ones
 * (`after_next_interval`) stay where they are.
 */
export async function completeCycles(
  ctx: AppContext,
  { keys, now }: { keys: AssignmentKey[]; now: Date },
): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  // Computed from the old row (SET sees the old cycle), so cycle and occurrence agree.
  const next = sql`greatest(a.cycle + 1, ${nextCycleSql(sql`a.anchor`, sql`a.interval::interval`, sql`(${at} - ${LATE_LIMIT}::interval)`)})`;
  for (const [projectId, all] of byProject(keys)) {
    let ids = all;
    for (let round = 0; round <= MAX_ROUNDS && ids.length; round++) {
      // Two key lookups and the decision in JS: no correlated subquery for the planner to get wrong on
      // freshly loaded tables. The assignments by key probe (rowsById) with their ctids: the updates
      // below find them by TID scan, as the caller's locks keep them in place.
      const rows = await queryRows<{ id: string; _tid: string; cycle: number; single: boolean }>(
        ctx.db,
        sql`
        select a.id, a._tid::text as _tid, a.cycle, a.interval is null as single
        from ${rowsById("schedule_assignments", projectId, uuidArray(ids), "a", { tid: true })} where a.state = 'active'`,
      );
      const pending = await queryRows<{ assignment_id: string; cycle: number }>(
        ctx.db,
        sql`
        select distinct f.assignment_id, f.cycle from unnest(${uuidArray(rows.map((r) => r.id))}) as k(id)
        cross join lateral (select assignment_id, cycle, state from schedule_firings f
          where f.project_id = ${projectId} and f.assignment_id = k.id offset 0) f
        where f.state = 'pending'`,
      );
      const tid = new Map(rows.map((r) => [r.id, r._tid]));
      const anyPending = new Set(pending.map((f) => f.assignment_id));
      const cyclePending = new Set(pending.map((f) => `${f.assignment_id}:${f.cycle}`));
      const done = rows.filter((r) => r.single && !anyPending.has(r.id)).map((r) => r.id);
      const finished = rows.filter((r) => !r.single && !cyclePending.has(`${r.id}:${r.cycle}`)).map((r) => r.id);
      if (done.length) {
        await ctx.db.execute(
          sql`update schedule_assignments set state = 'fired', updated_at = ${at} where ctid = any(${tidArray(done.map((id) => tid.get(id)!))})`,
        );
      }
      if (!finished.length || round === MAX_ROUNDS) return;
      await ctx.db.execute(sql`
        update schedule_assignments a set cycle = ${next}, occurrence_at = a.anchor + ${next} * a.interval::interval, updated_at = ${at}
        where a.ctid = any(${tidArray(finished.map((id) => tid.get(id)!))})`);
      await materializeFirings(ctx, { keys: finished.map((id) => ({ projectId, id })), now });
      ids = finished;
    }
  }
}
