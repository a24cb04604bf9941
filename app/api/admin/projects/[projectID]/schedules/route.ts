import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { createSchedule } from "@/lib/schedules/create-schedule";
import { listSchedules, listSchedulesQuery } from "@/lib/schedules/list-schedules";
import { scheduleInput } from "@/lib/schedules/schemas";

export const GET = withProject(
  "schedules.read",
  async (req, ctx) => json(await listSchedules(ctx, readQuery(req, listSchedulesQuery))),
  { sessions: true },
);

export const POST = withProject(
  "schedules.write",
  async (req, ctx) => json(await createSchedule(ctx, await readJson(req, scheduleInput)), 201),
  { sessions: true },
);
