import { NotFound } from "@/lib/http/errors";
import type { AssignmentView } from "./schemas";
import { loadAssignmentViews } from "./view";
import type { ProjectContext } from "@/lib/access/context";

/** One assignment of a schedule, by id. */
export async function getAssignment(
  ctx: ProjectContext,
  { scheduleId, assignmentId }: { scheduleId: string; assignmentId: string },
): Promise<AssignmentView> {
  const [view] = await loadAssignmentViews(ctx, [assignmentId]);
  if (!view || view.schedule_id !== scheduleId) throw new NotFound("No assignment with this id in this schedule.");
  return view;
}
