import { json, withProject } from "@/lib/http/with-project";
import { readJson } from "@/lib/http/read-json";
import { userBatchInput } from "@/lib/users/schemas";
import { upsertUsers } from "@/lib/users/upsert-user";

export const POST = withProject("users.write", async (req, ctx) => {
  const inputs = await readJson(req, userBatchInput);
  const { users, created } = await upsertUsers(ctx, inputs);
  return json({ data: users, created, updated: users.length - created });
});
