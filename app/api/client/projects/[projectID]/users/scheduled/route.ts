import { readJson } from "@/lib/http/read-json";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { assignSchedule } from "@/lib/schedules/assign-schedule";
import { assignmentInput, unassignInput } from "@/lib/schedules/schemas";
import { unassignSchedule } from "@/lib/schedules/unassign-schedule";

export const POST = withProject("schedules.assign", async (req, ctx) => {
  const input = await readJson(req, assignmentInput);
  const { assignment, created } = await assignSchedule(ctx, { kind: "user", body: input });
  return json(assignment, created ? 201 : 200);
});

export const DELETE = withProject("schedules.assign", async (req, ctx) => {
  await unassignSchedule(ctx, { kind: "user", body: await readJson(req, unassignInput) });
  return noContent();
});
