import { sql, type SQL } from "drizzle-orm";
import { LATE_LIMIT } from "./cycles";
import { ANNIVERSARY, ensureSchedule } from "./definitions";
import type { SubjectKind } from "./subject";
import { queryRows, uuidArray } from "@/lib/db/sql";
import { uuidv7s } from "@/lib/db/uuidv7";
import type { ProjectContext } from "@/lib/access/context";

/**
 * The built-in `anniversary` assignment for new users or organizations, in the transaction that creates
 * them and in one statement however many there are: anchored at creation, recurring yearly, first
 * occurring one year after creation, with one firing per offset of the project's anniversary schedule.
 * The firings are made from the assignment insert's RETURNING (a data-modifying CTE) rather than by
 * re-reading the assignments, and the schedule is found by name inside the statement; only a project's
 * first creation, which finds no schedule, makes it (lib/schedules/definitions.ts) and runs again.
 * The firing rule is materializeFirings' (lib/schedules/cycles.ts) for a fresh assignment. Assignment
 * ids are drawn in the process (lib/db/uuidv7.ts), cheaper than uuid_generate_v7() per row. The
 * schedule and its offsets are key-share locked once for the statement, in place of a foreign-key check
 * per row (db/migrations/0019_schedule_cascade_triggers.sql); the records are this transaction's own.
 * Both inserts are plain, without ON CONFLICT: the records were created in this transaction, so no other
 * can have assigned them anything, and each firing belongs to an assignment inserted here. A conflict
 * clause would cost an index probe before, and a confirmation record after, every row.
 */
export async function assignAnniversaries(
  ctx: ProjectContext,
  { kind, records, now = new Date() }: { kind: SubjectKind; records: { id: string; createdAt: Date }[]; now?: Date },
): Promise<void> {
  if (!records.length) return;
  if (await assign(ctx, kind, records, now)) return;
  await ensureSchedule(ctx, { name: ANNIVERSARY.name, type: ANNIVERSARY.type });
  await assign(ctx, kind, records, now);
}

/** False when the project has no anniversary schedule yet (then nothing was written). */
async function assign(
  ctx: ProjectContext,
  kind: SubjectKind,
  records: { id: string; createdAt: Date }[],
  now: Date,
): Promise<boolean> {
  const createdAt = `{${records.map((r) => r.createdAt.toISOString()).join(",")}}`;
  const subjects = sql`select * from unnest(${uuidArray(uuidv7s(records.length))}, ${uuidArray(records.map((r) => r.id))}, ${createdAt}::timestamptz[]) as r(assignment_id, id, created_at)`;
  const assigning = anniversarySql(ctx, kind, subjects, now);
  const [row] = await queryRows<{ found: boolean }>(
    ctx.db,
    sql`with ${assigning.ctes} select ${assigning.found} as found`,
  );
  return row!.found;
}

/**
 * The anniversary assignments (and their firings) of `subjects`, a query giving (assignment_id, id,
 * created_at) for new records, as a WITH list continuing a statement; `found` is false when the
 * project has no anniversary schedule yet (then nothing was written, and assignAnniversaries must run
 * once the schedule exists). `ready`, the same test as an expression that needs none of the WITH list,
 * lets a statement write its records only when their assignments can be written with them. lib/identity/upsert-records.ts puts this in the statement that inserts
 * the records, reading them from that statement's input; assign() above reads them from arrays.
 */
export function anniversarySql(
  ctx: ProjectContext,
  kind: SubjectKind,
  subjects: SQL,
  now: Date,
): { ctes: SQL; found: SQL; ready: SQL } {
  const column = sql.raw(kind === "user" ? "user_id" : "organization_id");
  const schedule = sql`select id from schedules where project_id = ${ctx.projectId}::uuid and name = ${ANNIVERSARY.name}`;
  const ctes = sql`anniversary_s as (${schedule} for key share),
    anniversary_o as (
      select o.project_id, o.schedule_id, o.id, o.direction, o."offset" from schedule_offsets o, anniversary_s s
      where o.project_id = ${ctx.projectId}::uuid and o.schedule_id = s.id for key share of o),
    anniversary_a as (
      insert into schedule_assignments (project_id, id, schedule_id, ${column}, state, interval, anchor, cycle, occurrence_at)
      select ${ctx.projectId}::uuid, r.assignment_id, s.id, r.id, 'active', ${ANNIVERSARY.interval}, r.anchor, 1, r.anchor + ${ANNIVERSARY.interval}::interval
      -- Anchored at the creation time cut to the millisecond (the anchor's precision), as the single
      -- upsert functions do: a cast would round a record created at .5136 up to .514.
      from anniversary_s s, (select *, date_trunc('milliseconds', created_at) as anchor from (${subjects}) c) r
      returning project_id, id, schedule_id, cycle, occurrence_at),
    anniversary_f as (
      insert into schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at, state)
      select a.project_id, a.id, o.id, a.cycle, t.fire_at,
             case when t.fire_at < ${now.toISOString()}::timestamptz - ${LATE_LIMIT}::interval then 'skipped' else 'pending' end
      from anniversary_a a
      join anniversary_o o on o.project_id = a.project_id and o.schedule_id = a.schedule_id
      cross join lateral (select a.occurrence_at + case o.direction when 'after' then o."offset"::interval else -o."offset"::interval end as fire_at) t)`;
  return { ctes, found: sql`exists (select 1 from anniversary_s)`, ready: sql`exists (${schedule})` };
}
