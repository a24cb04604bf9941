import { json, withProject } from "@/lib/http/with-project";
import { readJson } from "@/lib/http/read-json";
import { lunogramUserBatchInput } from "@/lib/lunogram/shapes";
import { upsertUsers } from "@/lib/users/upsert-user";

// The project path's handler with the project taken from the API key; items tolerate the response-only
// fields the Lunogram Python SDK sends (lib/lunogram/shapes.ts).
export const POST = withProject("users.write", async (req, ctx) => {
  const inputs = await readJson(req, lunogramUserBatchInput);
  const { users, created } = await upsertUsers(ctx, inputs);
  return json({ data: users, created, updated: users.length - created });
});
