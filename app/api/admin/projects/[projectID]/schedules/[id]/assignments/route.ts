import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";
import { listAssignments, listAssignmentsQuery } from "@/lib/schedules/list-assignments";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>(
  "schedules.read",
  async (req, ctx, params) =>
    json(
      await listAssignments(ctx, {
        scheduleId: readRecordId(params.id, "schedule"),
        query: readQuery(req, listAssignmentsQuery),
      }),
    ),
  { sessions: true },
);
