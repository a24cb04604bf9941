import type { ScheduleAssignment } from "@/db/schema";
import type { Identifier } from "@/lib/identity/schemas";
import { lockAssignment, lockAssignmentById, resolveSubject, type SubjectKind } from "./subject";
import type { ProjectContext } from "@/lib/access/context";

/** How a pause or resume names its assignment: by the client's (identifier, name), or by id (admin API). */
export type AssignmentLocator =
  | { kind: SubjectKind; identifier: Identifier[]; name: string }
  | { scheduleId: string; assignmentId: string };

export async function lockLocated(ctx: ProjectContext, at: AssignmentLocator): Promise<ScheduleAssignment> {
  if ("assignmentId" in at)
    return lockAssignmentById(ctx, { scheduleId: at.scheduleId, assignmentId: at.assignmentId });
  const subjectId = await resolveSubject(ctx, { kind: at.kind, identifier: at.identifier });
  return lockAssignment(ctx, { kind: at.kind, subjectId, name: at.name });
}
