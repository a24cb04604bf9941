import { preflight } from "@/lib/http/cors";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { readJson } from "@/lib/http/read-json";
import { deleteUser } from "@/lib/users/delete-user";
import { identifyInput, userInput } from "@/lib/users/schemas";
import { upsertUser } from "@/lib/users/upsert-user";

export const POST = withProject(
  "users.write",
  async (req, ctx) => {
    const input = await readJson(req, userInput);
    const { user, created } = await upsertUser(ctx, input);
    return json(user, created ? 201 : 200);
  },
  // A browser key (the browser SDK's identify) may upsert but never read the stored user back.
  { browser: () => ({ accepted: true }) },
);

/** CORS preflight for the browser SDK; the real request is checked against the key's allowed origins. */
export const OPTIONS = preflight;

export const DELETE = withProject("users.write", async (req, ctx) => {
  const { identifier } = await readJson(req, identifyInput);
  await deleteUser(ctx, identifier);
  return noContent();
});
