import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { actorSource } from "./actor-source";
import { clientSubscriptionsInput } from "./schemas";
import { setUserSubscriptions } from "./set-user-subscriptions";

/**
 * `POST …/users/subscriptions` of the client API, built once for its two paths:
 * `/api/client/projects/{projectID}/…` and `/api/client/…` (the project taken from the API key).
 */
export function subscriptionsRoutes() {
  return {
    POST: withProject("subscriptions.write", async (req, ctx) => {
      const input = await readJson(req, clientSubscriptionsInput);
      const { source, detail } = actorSource(ctx.actor, "client_api");
      return json(
        await setUserSubscriptions(ctx, {
          user: { identifier: input.identifier },
          changes: input.subscriptions,
          source,
          detail,
        }),
      );
    }),
  };
}
