import { readRecordId } from "@/lib/http/record-id";
import { noContent, withProject } from "@/lib/http/with-project";
import { deleteOffset } from "@/lib/schedules/delete-offset";

type Params = { projectID: string; id: string; offsetId: string };

export const DELETE = withProject<Params>(
  "schedules.write",
  async (_req, ctx, params) => {
    await deleteOffset(ctx, {
      scheduleId: readRecordId(params.id, "schedule"),
      offsetId: readRecordId(params.offsetId, "offset"),
    });
    return noContent();
  },
  { sessions: true },
);
