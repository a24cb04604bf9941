import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { createSchedule } from "@/lib/schedules/create-schedule";
import { listSchedules, listSchedulesQuery } from "@/lib/schedules/list-schedules";
import { scheduleInput } from "@/lib/schedules/schemas";

export const GET = adminRoute("schedules.read", (req, ctx) => listSchedules(ctx, readQuery(req, listSchedulesQuery)));

export const POST = adminRoute("schedules.write", { status: 201 }, async (req, ctx) =>
  createSchedule(ctx, await readJson(req, scheduleInput)),
);
