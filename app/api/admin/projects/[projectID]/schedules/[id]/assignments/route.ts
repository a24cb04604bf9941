import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { listAssignments, listAssignmentsQuery } from "@/lib/schedules/list-assignments";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("schedules.read", (req, ctx, params) =>
  listAssignments(ctx, {
    scheduleId: readRecordId(params.id, "schedule"),
    query: readQuery(req, listAssignmentsQuery),
  }),
);
