import { sql } from "drizzle-orm";
import { metrics } from "@/lib/observability/metrics";
import type { Db, DbOrTx, Transaction } from "@/db/client";
import { DEADLOCK, SERIALIZATION_FAILURE, errorCode, isDatabaseUnavailable } from "@/lib/db/errors";
import { log } from "@/lib/observability/logger";
import { recordSystemEvents, type SystemEvent } from "@/lib/events/record-system-events";
import { completeCycles, LATE_LIMIT } from "./cycles";
import { queryRows, rowsById, tidArray, uuidArray } from "@/lib/db/sql";
import { systemContext } from "@/lib/access/context";

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
 * One batch of the firing loop, in one transaction: claim up to `batchSize` due firings with
 * FOR UPDATE SKIP LOCKED, lock their assignments the same way (a firing whose assignment another
 * worker or a pause holds is left for a later batch), record one `scheduled.<name>` event per firing
 * through the pipeline's entry point, mark the firings fired and advance the cycles they completed.
 * A crash before commit leaves everything pending for the next claimer; nothing is recorded twice
 * because the events and the `fired` marks commit together. Firings over an hour late are marked
 * skipped instead (DESIGN.md section 6). `now` and `projectId` let tests drive one project's clock.
 */
export async function fireDueFirings(
  db: Db,
  opts: { now?: Date; batchSize?: number; projectId?: string; projectIds?: string[] } = {},
): Promise<FireResult> {
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
    tx,
    [...new Set(firings.map((f) => f.assignment_id))].map((id) => ({ projectId, id })),
    now,
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
    // The spec's fields win over same-named keys of the assignment's data.
    data: {
      ...a.data,
      schedule_id: a.schedule_id,
      schedule_offset_id: f.offset_id,
      offset,
      fire_at: fireAt.toISOString(),
    },
  };
}
