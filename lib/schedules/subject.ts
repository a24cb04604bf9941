import { sql } from "drizzle-orm";
import type { ScheduleAssignment } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { Identifier } from "@/lib/identity/schemas";
import { resolveAndHold } from "@/lib/identity/resolve";
import type { Kind } from "@/lib/identity/tables";
import { queryRows } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";

/** Who an assignment belongs to: a user or an organization, found by identifiers. */
export type SubjectKind = Kind;

export function subjectColumn(kind: SubjectKind) {
  return kind === "user" ? sql.raw("user_id") : sql.raw("organization_id");
}

/**
 * The user or organization the identifiers name, key-share locked until the transaction ends (in place
 * of the assignment's foreign key: db/migrations/0019_schedule_cascade_triggers.sql); 404 when none (assignments never create records).
 */
export async function resolveSubject(
  ctx: ProjectContext,
  { kind, identifier }: { kind: SubjectKind; identifier: Identifier[] },
): Promise<string> {
  const id = await resolveAndHold(ctx, { kind, identifier });
  if (!id)
    throw new NotFound(`No ${kind} with these identifiers in this project.`, {
      errors: [{ path: "identifier", message: `no such ${kind}` }],
    });
  return id;
}

/** Maps a raw `schedule_assignments` row (snake_case, from tx.execute) to the drizzle row type. */
export function toAssignment(r: Record<string, any>): ScheduleAssignment {
  return {
    projectId: r.project_id,
    id: r.id,
    scheduleId: r.schedule_id,
    userId: r.user_id,
    organizationId: r.organization_id,
    state: r.state,
    interval: r.interval,
    anchor: new Date(r.anchor),
    cycle: Number(r.cycle),
    occurrenceAt: new Date(r.occurrence_at),
    pauseMode: r.pause_mode,
    data: r.data,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/**
 * Locks and returns the subject's assignment of the named schedule (404 when there is none). Every
 * verb that changes an assignment takes this row lock first; the firing loop takes it with SKIP
 * LOCKED, so the two never wait on each other in opposite orders.
 */
export async function lockAssignment(
  ctx: ProjectContext,
  { kind, subjectId, name }: { kind: SubjectKind; subjectId: string; name: string },
): Promise<ScheduleAssignment> {
  const [row] = await queryRows<Record<string, unknown>>(
    ctx.db,
    sql`
    select a.* from schedule_assignments a
    join schedules s on s.project_id = a.project_id and s.id = a.schedule_id
    where a.project_id = ${ctx.projectId} and a.${subjectColumn(kind)} = ${subjectId} and s.name = ${name}
    for update of a`,
  );
  if (!row)
    throw new NotFound(`This ${kind} has no assignment of the schedule ${name}.`, {
      errors: [{ path: "name", message: "no such assignment" }],
    });
  return toAssignment(row);
}

export async function lockAssignmentById(
  ctx: ProjectContext,
  { scheduleId, assignmentId }: { scheduleId: string; assignmentId: string },
): Promise<ScheduleAssignment> {
  const [row] = await queryRows<Record<string, unknown>>(
    ctx.db,
    sql`
    select * from schedule_assignments where project_id = ${ctx.projectId} and schedule_id = ${scheduleId} and id = ${assignmentId}
    for update`,
  );
  if (!row) throw new NotFound("No assignment with this id in this schedule.");
  return toAssignment(row);
}
