import type { DbOrTx } from "@/db/client";
import { pauseAssignment } from "./pause-assignment";
import { resumeAssignment } from "./resume-assignment";
import type { AssignmentPatch, AssignmentView } from "./schemas";

/** Admin PATCH: `{state: "paused", mode}` pauses, `{state: "active", mode}` resumes (same rules as the client API). */
export async function patchAssignment(db: DbOrTx, projectId: string, scheduleId: string, assignmentId: string, patch: AssignmentPatch): Promise<AssignmentView> {
  const at = { scheduleId, assignmentId };
  return patch.state === "paused" ? pauseAssignment(db, projectId, at, patch.mode) : resumeAssignment(db, projectId, at, patch.mode);
}
