import { readRecordId } from "@/lib/http/record-id";
import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { getAssignment } from "@/lib/schedules/get-assignment";
import { patchAssignment } from "@/lib/schedules/patch-assignment";
import { assignmentPatchInput } from "@/lib/schedules/schemas";

type Params = { projectID: string; id: string; assignmentId: string };

export const GET = withProject<Params>(
  "schedules.read",
  async (_req, ctx, params) =>
    json(
      await getAssignment(ctx, {
        scheduleId: readRecordId(params.id, "schedule"),
        assignmentId: readRecordId(params.assignmentId, "assignment"),
      }),
    ),
  { sessions: true },
);

/** Pause or resume; the same transitions as the client pause/resume endpoints. */
export const PATCH = withProject<Params>(
  "schedules.write",
  async (req, ctx, params) => {
    const patch = await readJson(req, assignmentPatchInput);
    return json(
      await patchAssignment(ctx, {
        scheduleId: readRecordId(params.id, "schedule"),
        assignmentId: readRecordId(params.assignmentId, "assignment"),
        patch,
      }),
    );
  },
  { sessions: true },
);
