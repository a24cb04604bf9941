import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { deleteOffset } from "@/lib/schedules/delete-offset";

type Params = { projectID: string; id: string; offsetId: string };

export const DELETE = adminRoute<Params>("schedules.write", { status: 204 }, (_req, ctx, params) =>
  deleteOffset(ctx, {
    scheduleId: readRecordId(params.id, "schedule"),
    offsetId: readRecordId(params.offsetId, "offset"),
  }),
);
