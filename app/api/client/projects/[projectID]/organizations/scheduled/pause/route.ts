import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { pauseAssignment } from "@/lib/schedules/pause-assignment";
import { pauseInput } from "@/lib/schedules/schemas";

export const POST = withProject("schedules.assign", async (req, ctx) => {
  const { name, identifier, mode } = await readJson(req, pauseInput);
  return json(await pauseAssignment(ctx, { at: { kind: "organization", identifier, name }, mode }));
});
