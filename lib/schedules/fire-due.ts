import { sql } from "drizzle-orm";
import { metrics } from "@/lib/observability/metrics";
import type { Db, DbOrTx, Transaction } from "@/db/client";
import { DEADLOCK, SERIALIZATION_FAILURE, errorCode, isDatabaseUnavailable } from "@/lib/db/errors";
import { log } from "@/lib/observability/logger";
import { recordSystemEvents, type SystemEvent } from "@/lib/events/record-system-events";
import { completeCycles, LATE_LIMIT } from "./cycles";
import { queryRows, rowsById, tidArray, uuidArray } from "@/lib/db/sql";
import { systemContext, type AppContext } from "@/lib/access/context";
import { uuidv7s } from "@/lib/db/uuidv7";
import { enqueueSteps } from "@/lib/pipeline/enqueue-steps";
import type { RecordedEvent } from "@/lib/pipeline/open-batch";

export interface FireResult {
  /** Firings this batch claimed (including any it had to leave because their assignment was busy). */
  claimed: number;
  fired: number;
  skipped: number;
  /** Firings that could not be fired because of something wrong with their own rows; marked `failed`. */
  failed: number;
}

interface DueFiring {
  /** The row's address, stable while the claim's lock is held: the marks below update by TID scan. */
  tid: string;
  project_id: string;
  assignment_id: string;
  offset_id: string;
  cycle: string;
  fire_at: string;
  late: boolean;
}

interface LockedAssignment {
  id: string;
  user_id: string | null;
  organization_id: string | null;
  data: Record<string, unknown>;
  schedule_id: string;
  name: string;
}

/**
 * One batch of the firing loop, in one transaction. The whole batch is first tried set-based
 * (`fireSetBased`: one statement claims, locks, records and marks); if that fails for a reason of its
 * own rows (not the database's), the batch is fired again row-aware (`fireRowAware`), which isolates
 * projects and firings and marks a firing that fails alone `failed`. `now` and `projectId` let tests
 * drive one project's clock. Takes an AppContext: a batch claims the due firings of every project.
 */
export async function fireDueFirings(ctx: AppContext<Db>, opts: FireOptions = {}): Promise<FireResult> {
  try {
    return await ctx.db.transaction((tx) => fireSetBased(tx, opts));
  } catch (err) {
    if (isTransient(err)) throw err;
    log.warn({ err }, "set-based schedule firing failed; firing the batch row by row");
  }
  return fireRowAware(ctx.db, opts);
}

interface FireOptions {
  now?: Date;
  batchSize?: number;
  projectId?: string;
  projectIds?: string[];
}

/** One group of a batch's recorded events: the same project, event name, assignment data and offset. */
interface FiredGroup {
  project_id: string;
  name: string;
  /** One event's data, standing for the group's events in the schema step (they differ only in values). */
  data: Record<string, unknown>;
  ids: string[];
  /** The group's earliest fire time (its events' occurred_at), ISO: a lower bound for the step jobs' `since`. */
  since: string;
  received_at: string;
}

/**
 * The claim as in fireRowAware, but everything else in the same statement, without a row of it in
 * JavaScript: lock the firings' assignments (SKIP LOCKED: a firing whose assignment another worker or a
 * pause holds is left for a later batch), insert one `scheduled.<name>` event per on-time firing into
 * `events` (pipeline step 1, its data built in SQL), mark the firings fired (or skipped, when over an
 * hour late: docs/decisions/0023) and mark single assignments with nothing else pending fired. Steps 2-4
 * are enqueued here as the drain enqueues them, so the events never pass through `event_intake`.
 * Recurring assignments' cycles are then closed by completeCycles. A crash before commit leaves
 * everything pending for the next claimer; nothing is recorded twice because the events and the marks
 * commit together.
 */
async function fireSetBased(tx: Transaction, opts: FireOptions): Promise<FireResult> {
  const now = opts.now ?? new Date();
  const at = sql`${now.toISOString()}::timestamptz`;
  const limit = opts.batchSize ?? 1000;
  // Plan settings as in fireRowAware; sorting stays off for the claim's index walk only.
  await tx.execute(sql`select set_config('enable_sort', 'off', true), set_config('enable_seqscan', 'off', true)`);
  const ids = uuidArray(uuidv7s(limit));
  const rows = await queryRows<
    {
      claimed: number;
      fired: number;
      skipped: number;
      recurring: { p: string; a: string }[] | null;
      lags: number[] | null;
    } & ({ [K in keyof FiredGroup]: null } | FiredGroup)
  >(
    tx,
    sql`
    with due as materialized (
      select ctid as tid, project_id, assignment_id, offset_id, cycle, fire_at
      from schedule_firings
      where state = 'pending' and fire_at <= ${at} ${opts.projectId ? sql`and project_id = ${opts.projectId}` : sql``}
        ${opts.projectIds ? sql`and project_id = any(${uuidArray(opts.projectIds)})` : sql``}
      order by fire_at
      limit ${limit}
      for update skip locked
    ), mine as materialized (
      -- Each assignment once, in key order (as every writer of assignments locks them), by key probe.
      select a.ctid as atid, a.project_id, a.id, a.user_id, a.organization_id, a.data, a.schedule_id,
        a.interval is null as single, a.state
      from (select distinct project_id, assignment_id from due order by 1, 2) k
      cross join lateral (
        select a.ctid, a.* from schedule_assignments a
        where a.project_id = k.project_id and a.id = k.assignment_id offset 0 for update skip locked) a
    ), joined as materialized (
      select d.tid, d.project_id, d.assignment_id, d.fire_at, m.atid, m.single, m.state,
        d.fire_at < ${at} - ${LATE_LIMIT}::interval as late,
        'scheduled.' || s.name as name,
        m.data, m.schedule_id, d.offset_id, o."offset",
        to_char(d.fire_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as fire_at_text,
        m.user_id, m.organization_id, row_number() over () as n
      from due d
      join mine m on m.project_id = d.project_id and m.id = d.assignment_id
      join schedules s on s.project_id = m.project_id and s.id = m.schedule_id
      join schedule_offsets o on o.project_id = d.project_id and o.id = d.offset_id
    ), fire as materialized (
      -- The ids by position, from one unnest of the parameter: a subscript of the parameter per row would
      -- parse the whole array again for every row once the statement runs on its generic plan.
      select j.*, i.id as event_id from joined j join unnest(${ids}) with ordinality as i(id, n) on i.n = j.n
    ), recorded as (
      insert into events (project_id, id, name, user_id, organization_id, data, origin, occurred_at)
      -- The firing's own fields win over same-named keys of the assignment's data.
      select project_id, event_id, name, user_id, organization_id,
        data || jsonb_build_object('schedule_id', schedule_id, 'schedule_offset_id', offset_id, 'offset', "offset", 'fire_at', fire_at_text),
        'system', fire_at
      from fire where not late
    ), marked as (
      update schedule_firings f set state = case when x.late then 'skipped' else 'fired' end,
        fired_at = case when x.late then ${at} else clock_timestamp() end,
        event_id = case when not x.late then x.event_id end
      from fire x
      where f.ctid = x.tid
    ), closing as (
      -- A single assignment is done when every pending firing it has is in this batch (the statement
      -- sees them still pending). The assignment's lock keeps another worker from firing the rest meanwhile.
      select atid, project_id, assignment_id, count(*) as n from fire where single and state = 'active'
      group by atid, project_id, assignment_id
    ), done as (
      update schedule_assignments a set state = 'fired', updated_at = ${at}
      from closing c
      where a.ctid = c.atid
        and (select count(*) from schedule_firings f
             where f.project_id = c.project_id and f.assignment_id = c.assignment_id and f.state = 'pending') = c.n
    )
    -- One row per group of recorded events (the same project, name, offset and assignment data), each
    -- with the batch's counts; one row with the counts alone when nothing was recorded.
    select s.*, g.* from (
      select (select count(*) from due)::int as claimed,
        (select count(*) from fire where not late)::int as fired,
        (select count(*) from fire where late)::int as skipped,
        (select jsonb_agg(distinct jsonb_build_object('p', project_id, 'a', assignment_id)) from fire where not single) as recurring,
        (select array_agg(extract(epoch from ${at} - fire_at)::float8) from fire where not late) as lags) s
    left join lateral (
      -- One sample of the data per group: its events differ from it only in fire_at's value.
      select project_id, name, data || jsonb_build_object('schedule_id', schedule_id,
          'schedule_offset_id', offset_id, 'offset', "offset", 'fire_at', min(fire_at_text)) as data,
        min(fire_at_text) as since, now()::text as received_at, array_agg(event_id) as ids
      from fire where not late group by project_id, name, schedule_id, offset_id, "offset", data) g on true`,
  );
  const summary = rows[0]!;
  const result = { claimed: summary.claimed, fired: summary.fired, skipped: summary.skipped, failed: 0 };
  await tx.execute(sql`set local enable_sort = on`);
  const recurring = (summary.recurring ?? []).map((r) => ({ projectId: r.p, id: r.a }));
  if (recurring.length) await completeCycles({ db: tx }, { keys: recurring, now });
  const byProject = new Map<string, FiredGroup[]>();
  for (const g of rows) {
    if (!g.project_id) continue;
    const groups = byProject.get(g.project_id);
    if (groups) groups.push(g);
    else byProject.set(g.project_id, [g]);
  }
  for (const [projectId, groups] of byProject) {
    const events: RecordedEvent[] = [];
    for (const g of groups)
      for (const id of g.ids)
        events.push({ id, name: g.name, data: g.data, receivedAt: g.received_at, occurredAt: g.since });
    const samples = groups.map((g) => ({ name: g.name, data: g.data, receivedAt: g.received_at, times: g.ids.length }));
    await enqueueSteps(systemContext(tx, projectId), { recorded: events, samples });
  }
  for (const lag of summary.lags ?? []) metrics.firingLag.observe(lag);
  return result;
}

/**
 * The batch fired with JavaScript in the loop: claim up to `batchSize` due firings with FOR UPDATE SKIP
 * LOCKED, then per project (in a savepoint) lock their assignments the same way, record one
 * `scheduled.<name>` event per firing through the pipeline's entry point, mark the firings fired and
 * advance the cycles they completed. Slower than fireSetBased, but a firing that fails alone is marked
 * `failed` without stopping the others.
 */
async function fireRowAware(db: Db, opts: FireOptions): Promise<FireResult> {
  const now = opts.now ?? new Date();
  const at = sql`${now.toISOString()}::timestamptz`;
  return db.transaction(async (tx) => {
    // The claim must walk the due index in fire_at order and stop after `limit` rows. With the table's
    // statistics stale (estimated a few due rows), the planner read every due firing by bitmap and
    // sorted them, per batch: a backlog of a million due firings read in full for each thousand fired
    // (lib/schedules/firing-plans.int.test.ts). Sorting disabled for this one statement leaves it only
    // the ordered index scan; set back before anything else runs in the transaction.
    // Sequential scans stay off for the whole transaction: everything in it reads by key or by TID, and
    // a small table's sequential scan is costed about as a batch's TID fetches (the plan test's 3,160
    // firings: 80.5 for the scan, once firings lost their id column and so some pages), so the fired
    // mark was planned as a scan of every firing (lib/schedules/firing-plans.int.test.ts).
    await tx.execute(sql`select set_config('enable_sort', 'off', true), set_config('enable_seqscan', 'off', true)`);
    const due = await queryRows<DueFiring>(
      tx,
      sql`
      select ctid::text as tid, project_id, assignment_id, offset_id, cycle::text, fire_at, fire_at < ${at} - ${LATE_LIMIT}::interval as late
      from schedule_firings
      where state = 'pending' and fire_at <= ${at} ${opts.projectId ? sql`and project_id = ${opts.projectId}` : sql``}
        ${opts.projectIds ? sql`and project_id = any(${uuidArray(opts.projectIds)})` : sql``}
      order by fire_at
      limit ${opts.batchSize ?? 1000}
      for update skip locked`,
    );
    await tx.execute(sql`set local enable_sort = on`);
    const result = { claimed: due.length, fired: 0, skipped: 0, failed: 0 };
    const byProject = new Map<string, DueFiring[]>();
    for (const f of due) byProject.set(f.project_id, [...(byProject.get(f.project_id) ?? []), f]);
    for (const [projectId, firings] of byProject) {
      const counts = await fireIsolated(tx, projectId, firings, now);
      result.fired += counts.fired;
      result.skipped += counts.skipped;
      result.failed += counts.failed;
    }
    return result;
  });
}

/**
 * One project's firings inside a savepoint, so a bad row of one project can never roll back (and so
 * stop) every other project's firings in the batch. If the project's batch fails, each firing is tried
 * alone; one that still fails is marked `failed` and logged rather than claimed again forever. Errors
 * that say the database itself is in trouble (lost connection, deadlock, serialization) are rethrown:
 * the whole batch rolls back and the next one retries it.
 */
async function fireIsolated(tx: Transaction, projectId: string, firings: DueFiring[], now: Date) {
  try {
    return { ...(await tx.transaction((sp) => fireProjectFirings(sp, projectId, firings, now))), failed: 0 };
  } catch (err) {
    if (isTransient(err)) throw err;
    log.error(
      { err, projectId, firings: firings.length },
      "schedule firings of one project failed; retrying them one by one",
    );
  }
  const counts = { fired: 0, skipped: 0, failed: 0 };
  for (const f of firings) {
    try {
      const one = await tx.transaction((sp) => fireProjectFirings(sp, projectId, [f], now));
      counts.fired += one.fired;
      counts.skipped += one.skipped;
    } catch (err) {
      if (isTransient(err)) throw err;
      log.error(
        { err, projectId, assignmentId: f.assignment_id, offsetId: f.offset_id, cycle: f.cycle },
        "schedule firing failed; marked failed",
      );
      await tx.execute(sql`update schedule_firings set state = 'failed', fired_at = ${now.toISOString()}::timestamptz
        where project_id = ${projectId} and assignment_id = ${f.assignment_id} and offset_id = ${f.offset_id} and cycle = ${f.cycle}::bigint`);
      metrics.firings.inc({ outcome: "failed" });
      counts.failed++;
    }
  }
  return counts;
}

function isTransient(err: unknown): boolean {
  const code = errorCode(err);
  return isDatabaseUnavailable(err) || code === SERIALIZATION_FAILURE || code === DEADLOCK;
}

async function fireProjectFirings(tx: DbOrTx, projectId: string, claimed: DueFiring[], now: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  // Rows by key probe (rowsById), never `id = any(...)`: with stale statistics that read every
  // assignment and firing of the project per batch (lib/schedules/firing-plans.int.test.ts).
  const assignmentIds = uuidArray([...new Set(claimed.map((f) => f.assignment_id))].sort());
  const assignments = await queryRows<LockedAssignment>(
    tx,
    sql`
    select a.id, a.user_id, a.organization_id, a.data, a.schedule_id, s.name
    from ${rowsById("schedule_assignments", projectId, assignmentIds, "a", { lock: "update skip locked" })}
    join schedules s on s.project_id = a.project_id and s.id = a.schedule_id`,
  );
  const locked = new Map(assignments.map((a) => [a.id, a]));
  const firings = claimed.filter((f) => locked.has(f.assignment_id));
  if (!firings.length) return { fired: 0, skipped: 0 };
  const offsets = await queryRows<{
    id: string;
    offset: string;
  }>(
    tx,
    sql`
    select o.id, o."offset" from ${rowsById("schedule_offsets", projectId, uuidArray([...new Set(firings.map((f) => f.offset_id))]), "o")}`,
  );
  const offsetText = new Map(offsets.map((o) => [o.id, o.offset]));

  const onTime = firings.filter((f) => !f.late);
  const late = firings.filter((f) => f.late);
  const eventIds = await recordSystemEvents(
    systemContext(tx, projectId),
    onTime.map((f) => toEvent(f, locked.get(f.assignment_id)!, offsetText.get(f.offset_id)!)),
  );
  if (onTime.length) {
    // event_id by position: the rows' addresses and the event ids travel as two parallel arrays.
    const tids = tidArray(onTime.map((f) => f.tid));
    await tx.execute(sql`
      update schedule_firings set state = 'fired', fired_at = clock_timestamp(),
        event_id = (${uuidArray(eventIds)})[array_position(${tids}, ctid)]
      where ctid = any(${tids})`);
  }
  if (late.length) {
    await tx.execute(sql`
      update schedule_firings set state = 'skipped', fired_at = ${at}
      where ctid = any(${tidArray(late.map((f) => f.tid))})`);
  }
  await completeCycles(
    { db: tx },
    { keys: [...new Set(firings.map((f) => f.assignment_id))].map((id) => ({ projectId, id })), now },
  );
  for (const f of onTime) metrics.firingLag.observe((now.getTime() - new Date(f.fire_at).getTime()) / 1000);
  return { fired: onTime.length, skipped: late.length };
}

function toEvent(f: DueFiring, a: LockedAssignment, offset: string): SystemEvent {
  const fireAt = new Date(f.fire_at);
  return {
    name: `scheduled.${a.name}`,
    userId: a.user_id,
    organizationId: a.organization_id,
    occurredAt: fireAt,
    // The firing's own fields win over same-named keys of the assignment's data.
    data: {
      ...a.data,
      schedule_id: a.schedule_id,
      schedule_offset_id: f.offset_id,
      offset,
      fire_at: fireAt.toISOString(),
    },
  };
}
