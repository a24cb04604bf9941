import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { resumeAssignment } from "@/lib/schedules/resume-assignment";
import { resumeInput } from "@/lib/schedules/schemas";

export const POST = withProject("schedules.assign", async (req, ctx) => {
  const { name, identifier, mode } = await readJson(req, resumeInput);
  return json(await resumeAssignment(ctx, { at: { kind: "user", identifier, name }, mode }));
});
