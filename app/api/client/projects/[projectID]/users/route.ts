import { json, noContent, withProject } from "@/lib/http/with-project";
import { readJson } from "@/lib/http/read-json";
import { deleteUser } from "@/lib/users/delete-user";
import { identifyInput, userInput } from "@/lib/users/schemas";
import { upsertUser } from "@/lib/users/upsert-user";

export const POST = withProject("users.write", async (req, ctx) => {
  const input = await readJson(req, userInput);
  const { user, created } = await upsertUser(ctx.db, ctx.projectId, input);
  return json(user, created ? 201 : 200);
});

export const DELETE = withProject("users.write", async (req, ctx) => {
  const { identifier } = await readJson(req, identifyInput);
  await deleteUser(ctx.db, ctx.projectId, identifier);
  return noContent();
});
