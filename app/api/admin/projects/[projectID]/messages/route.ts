import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";
import { listMessages } from "@/lib/messages/list-messages";
import { listMessagesQuery } from "@/lib/messages/schemas";

export const GET = adminRoute("messages.read", (req, ctx) => listMessages(ctx, readQuery(req, listMessagesQuery)));
