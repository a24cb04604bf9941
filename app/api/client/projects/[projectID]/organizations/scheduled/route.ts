import { scheduledRoutes } from "@/lib/schedules/client-routes";
import { assignmentInput, unassignInput } from "@/lib/schedules/schemas";

export const { POST, DELETE } = scheduledRoutes("organization", {
  assignment: assignmentInput,
  unassign: unassignInput,
});
