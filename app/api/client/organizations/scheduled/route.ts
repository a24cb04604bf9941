import { lunogramAssignmentInput, lunogramUnassignInput } from "@/lib/lunogram/shapes";
import { readJson } from "@/lib/http/read-json";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { assignSchedule } from "@/lib/schedules/assign-schedule";
import { unassignSchedule } from "@/lib/schedules/unassign-schedule";

// The project path's handlers with the project taken from the API key; identifiers may carry the
// response-only fields the Lunogram Python SDK sends (lib/lunogram/shapes.ts).
export const POST = withProject("schedules.assign", async (req, ctx) => {
  const input = await readJson(req, lunogramAssignmentInput);
  const { assignment, created } = await assignSchedule(ctx, { kind: "organization", body: input });
  return json(assignment, created ? 201 : 200);
});

export const DELETE = withProject("schedules.assign", async (req, ctx) => {
  await unassignSchedule(ctx, { kind: "organization", body: await readJson(req, lunogramUnassignInput) });
  return noContent();
});
