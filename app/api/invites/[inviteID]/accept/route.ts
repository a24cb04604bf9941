import { acceptInvite } from "@/lib/invites/accept-invite";
import { readRecordId } from "@/lib/http/record-id";
import { json } from "@/lib/http/with-project";
import { withSession } from "@/lib/http/with-session";

export const POST = withSession<{ inviteID: string }>(async (_req, ctx, params) =>
  json(await acceptInvite(ctx, readRecordId(params.inviteID, "invitation"))),
);
