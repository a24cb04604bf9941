import type { DbOrTx } from "@/db/client";
import { NotFound } from "@/lib/http/errors";
import type { AssignmentView } from "./schemas";
import { loadAssignmentViews } from "./view";

/** One assignment of a schedule, by id. */
export async function getAssignment(db: DbOrTx, projectId: string, scheduleId: string, assignmentId: string): Promise<AssignmentView> {
  const [view] = await loadAssignmentViews(db, projectId, [assignmentId]);
  if (!view || view.schedule_id !== scheduleId) throw new NotFound("No assignment with this id in this schedule.");
  return view;
}
