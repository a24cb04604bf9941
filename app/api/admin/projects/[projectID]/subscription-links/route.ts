import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { publicOrigin } from "@/lib/http/public-origin";
import { mintSubscriptionLinks } from "@/lib/subscriptions/mint-subscription-links";
import { subscriptionLinksInput } from "@/lib/subscriptions/schemas";

export const POST = withProject(
  "links.write",
  async (req, ctx) =>
    json(
      await mintSubscriptionLinks(ctx, {
        body: await readJson(req, subscriptionLinksInput),
        origin: publicOrigin(req),
      }),
    ),
  { sessions: true },
);
