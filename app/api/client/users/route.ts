import { preflight } from "@/lib/http/cors";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { readJson } from "@/lib/http/read-json";
import { lunogramIdentifyInput, lunogramUserInput } from "@/lib/lunogram/shapes";
import { deleteUser } from "@/lib/users/delete-user";
import { upsertUser } from "@/lib/users/upsert-user";

// The project path's handlers with the project taken from the API key (what the Lunogram SDKs and the
// browser SDK call); the bodies also tolerate the response-only fields the Lunogram Python SDK sends.
export const POST = withProject(
  "users.write",
  async (req, ctx) => {
    const input = await readJson(req, lunogramUserInput);
    const { user, created } = await upsertUser(ctx, input);
    return json(user, created ? 201 : 200);
  },
  // A browser key (the browser SDK's identify) may upsert but never read the stored user back.
  { browser: () => ({ accepted: true }) },
);

export const DELETE = withProject("users.write", async (req, ctx) => {
  const { identifier } = await readJson(req, lunogramIdentifyInput);
  await deleteUser(ctx, identifier);
  return noContent();
});

/** CORS preflight for the browser SDK; the real request is checked against the key's allowed origins. */
export const OPTIONS = preflight;
