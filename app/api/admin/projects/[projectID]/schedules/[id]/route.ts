import { readRecordId } from "@/lib/http/record-id";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { deleteSchedule } from "@/lib/schedules/delete-schedule";
import { getSchedule } from "@/lib/schedules/get-schedule";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>(
  "schedules.read",
  async (_req, ctx, params) => json(await getSchedule(ctx, readRecordId(params.id, "schedule"))),
  { sessions: true },
);

export const DELETE = withProject<Params>(
  "schedules.write",
  async (_req, ctx, params) => {
    await deleteSchedule(ctx, readRecordId(params.id, "schedule"));
    return noContent();
  },
  { sessions: true },
);
