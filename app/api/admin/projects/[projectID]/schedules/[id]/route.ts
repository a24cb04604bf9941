import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { deleteSchedule } from "@/lib/schedules/delete-schedule";
import { getSchedule } from "@/lib/schedules/get-schedule";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("schedules.read", (_req, ctx, params) =>
  getSchedule(ctx, readRecordId(params.id, "schedule")),
);

export const DELETE = adminRoute<Params>("schedules.write", { status: 204 }, (_req, ctx, params) =>
  deleteSchedule(ctx, readRecordId(params.id, "schedule")),
);
