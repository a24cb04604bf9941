import { readRecordId } from "@/lib/http/record-id";
import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { getAssignment } from "@/lib/schedules/get-assignment";
import { patchAssignment } from "@/lib/schedules/patch-assignment";
import { assignmentPatchInput } from "@/lib/schedules/schemas";

type Params = { projectID: string; id: string; assignmentId: string };

export const GET = adminRoute<Params>("schedules.read", (_req, ctx, params) =>
  getAssignment(ctx, {
    scheduleId: readRecordId(params.id, "schedule"),
    assignmentId: readRecordId(params.assignmentId, "assignment"),
  }),
);

/** Pause or resume; the same transitions as the client pause/resume endpoints. */
export const PATCH = adminRoute<Params>("schedules.write", async (req, ctx, params) => {
  const patch = await readJson(req, assignmentPatchInput);
  return patchAssignment(ctx, {
    scheduleId: readRecordId(params.id, "schedule"),
    assignmentId: readRecordId(params.assignmentId, "assignment"),
    patch,
  });
});
