import type { z } from "zod";
import { preflight } from "@/lib/http/cors";
import { readJson } from "@/lib/http/read-json";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { deleteUser } from "./delete-user";
import type { identifyInput, UserInput } from "./schemas";
import { upsertUser, upsertUsers } from "./upsert-user";

/*
 * The users routes of the client API, each built once for its two paths: `/api/client/projects/{projectID}/…`
 * with our bodies, and `/api/client/…` (the project taken from the API key: what the Lunogram SDKs and the
 * browser SDK call) with the bodies of lib/lunogram/shapes.ts, which also tolerate the response-only
 * fields the Lunogram Python SDK sends.
 */

/** `POST` and `DELETE …/users`, and the browser SDK's CORS preflight. */
export function usersRoutes(bodies: {
  user: z.ZodType<UserInput>;
  identify: z.ZodType<z.output<typeof identifyInput>>;
}) {
  return {
    POST: withProject(
      "users.write",
      async (req, ctx) => {
        const input = await readJson(req, bodies.user);
        const { user, created } = await upsertUser(ctx, input);
        return json(user, created ? 201 : 200);
      },
      // A browser key (the browser SDK's identify) may upsert but never read the stored user back.
      { browser: () => ({ accepted: true }) },
    ),
    DELETE: withProject("users.write", async (req, ctx) => {
      const { identifier } = await readJson(req, bodies.identify);
      await deleteUser(ctx, identifier);
      return noContent();
    }),
    /** CORS preflight for the browser SDK; the real request is checked against the key's allowed origins. */
    OPTIONS: preflight,
  };
}

/** `POST …/users/batch`. */
export function userBatchRoutes(bodies: { batch: z.ZodType<UserInput[]> }) {
  return {
    POST: withProject("users.write", async (req, ctx) => {
      const inputs = await readJson(req, bodies.batch);
      const { users, created } = await upsertUsers(ctx, inputs);
      return json({ data: users, created, updated: users.length - created });
    }),
  };
}
