import { readQuery } from "@/lib/http/pagination";
import { json, withProject } from "@/lib/http/with-project";
import { canSend } from "@/lib/subscriptions/can-send";
import { canSendQuery } from "@/lib/subscriptions/schemas";

/** The sending filter: may this group's message go to this user now? */
export const GET = withProject(
  "subscriptions.read",
  async (req, ctx) => {
    const q = readQuery(req, canSendQuery);
    return json(await canSend(ctx, { userId: q.user_id, group: q.group, channel: q.channel }));
  },
  { sessions: true },
);
