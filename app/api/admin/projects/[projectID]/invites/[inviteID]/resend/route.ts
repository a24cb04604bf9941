import { resendInvite } from "@/lib/invites/resend-invite";
import { publicOrigin } from "@/lib/http/public-origin";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

type Params = { projectID: string; inviteID: string };

/** 202: the mail is queued again; the answer is the invitation with `delivery: "queued"`. */
export const POST = adminRoute<Params>("invites.write", { status: 202 }, (req, ctx, params) =>
  resendInvite(ctx, { inviteId: readRecordId(params.inviteID, "invitation"), origin: publicOrigin(req) }),
);
