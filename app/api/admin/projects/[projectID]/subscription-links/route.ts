import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { publicOrigin } from "@/lib/http/public-origin";
import { mintSubscriptionLinks } from "@/lib/subscriptions/mint-subscription-links";
import { subscriptionLinksInput } from "@/lib/subscriptions/schemas";

export const POST = adminRoute("links.write", async (req, ctx) =>
  mintSubscriptionLinks(ctx, {
    body: await readJson(req, subscriptionLinksInput),
    origin: publicOrigin(req),
  }),
);
