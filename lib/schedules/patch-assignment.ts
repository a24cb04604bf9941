import { pauseAssignment } from "./pause-assignment";
import { resumeAssignment } from "./resume-assignment";
import type { AssignmentPatch, AssignmentView } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

/** Admin PATCH: `{state: "paused", mode}` pauses, `{state: "active", mode}` resumes (same rules as the client API). */
export async function patchAssignment(
  ctx: ProjectContext,
  { scheduleId, assignmentId, patch }: { scheduleId: string; assignmentId: string; patch: AssignmentPatch },
): Promise<AssignmentView> {
  const at = { scheduleId, assignmentId };
  return patch.state === "paused"
    ? pauseAssignment(ctx, { at, mode: patch.mode })
    : resumeAssignment(ctx, { at, mode: patch.mode });
}
