import { sql } from "drizzle-orm";
import { materializeFirings, type AssignmentKey } from "./cycles";
import { ANNIVERSARY, ensureSchedule } from "./definitions";
import type { SubjectKind } from "./subject";
import { queryRows, rowsSql } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";

/**
 * The built-in `anniversary` assignment for new users or organizations, in the transaction that creates
 * them and in two statements however many there are: anchored at creation, recurring yearly, first
 * occurring one year after creation, with one firing per offset of the project's anniversary schedule.
 */
export async function assignAnniversaries(ctx: ProjectContext, kind: SubjectKind, records: { id: string; createdAt: Date }[]): Promise<void> {
  if (!records.length) return;
  const schedule = await ensureSchedule(ctx, ANNIVERSARY.name, ANNIVERSARY.type);
  const column = sql.raw(kind === "user" ? "user_id" : "organization_id");
  const keys = (await queryRows<AssignmentKey>(ctx.db, sql`
    insert into schedule_assignments (project_id, schedule_id, ${column}, state, interval, anchor, cycle, occurrence_at)
    select ${ctx.projectId}, ${schedule.id}, r.id, 'active', ${ANNIVERSARY.interval}, r.created_at, 1, r.created_at + ${ANNIVERSARY.interval}::interval
    from ${rowsSql(records.map((r) => ({ id: r.id, created_at: r.createdAt.toISOString() })), "id uuid, created_at timestamptz")} r
    on conflict do nothing
    returning project_id as "projectId", id`));
  await materializeFirings(ctx.db, keys, new Date());
}
