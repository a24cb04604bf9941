import { lunogramAssignmentInput, lunogramUnassignInput } from "@/lib/lunogram/shapes";
import { scheduledRoutes } from "@/lib/schedules/client-routes";

// The project path's routes with the project taken from the API key (what the Lunogram SDKs call); the
// bodies also tolerate the response-only fields the Lunogram Python SDK sends (lib/lunogram/shapes.ts).
export const { POST, DELETE } = scheduledRoutes("organization", {
  assignment: lunogramAssignmentInput,
  unassign: lunogramUnassignInput,
});
