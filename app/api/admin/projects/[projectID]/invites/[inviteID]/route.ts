import { revokeInvite } from "@/lib/invites/revoke-invite";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

type Params = { projectID: string; inviteID: string };

export const DELETE = adminRoute<Params>("invites.write", { status: 204 }, (_req, ctx, params) =>
  revokeInvite(ctx, readRecordId(params.inviteID, "invitation")),
);
