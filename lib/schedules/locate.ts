import type { DbOrTx } from "@/db/client";
import type { ScheduleAssignment } from "@/db/schema";
import type { Identifier } from "@/lib/identity/schemas";
import { lockAssignment, lockAssignmentById, resolveSubject, type SubjectKind } from "./subject";

/** How a pause or resume names its assignment: by the client's (identifier, name), or by id (admin API). */
export type AssignmentLocator =
  | { kind: SubjectKind; identifier: Identifier[]; name: string }
  | { scheduleId: string; assignmentId: string };

export async function lockLocated(tx: DbOrTx, projectId: string, at: AssignmentLocator): Promise<ScheduleAssignment> {
  if ("assignmentId" in at) return lockAssignmentById(tx, projectId, at.scheduleId, at.assignmentId);
  const subjectId = await resolveSubject(tx, at.kind, projectId, at.identifier);
  return lockAssignment(tx, at.kind, projectId, subjectId, at.name);
}
