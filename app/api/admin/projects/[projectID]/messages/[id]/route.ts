import { publicOrigin } from "@/lib/http/public-origin";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { getMessage } from "@/lib/messages/get-message";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("messages.read", (req, ctx, p) =>
  getMessage(ctx, { id: readRecordId(p.id, "message"), origin: publicOrigin(req) }),
);
