import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";
import { canSend } from "@/lib/subscriptions/can-send";
import { canSendQuery } from "@/lib/subscriptions/schemas";

/** The sending filter: may this group's message go to this user now? */
export const GET = adminRoute("subscriptions.read", async (req, ctx) => {
  const q = readQuery(req, canSendQuery);
  return canSend(ctx, { userId: q.user_id, group: q.group, channel: q.channel });
});
