import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { actorSource } from "@/lib/subscriptions/actor-source";
import { clientSubscriptionsInput } from "@/lib/subscriptions/schemas";
import { setUserSubscriptions } from "@/lib/subscriptions/set-user-subscriptions";

export const POST = withProject("subscriptions.write", async (req, ctx) => {
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
});
