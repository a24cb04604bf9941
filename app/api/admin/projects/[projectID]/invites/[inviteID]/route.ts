import { revokeInvite } from "@/lib/invites/revoke-invite";
import { readRecordId } from "@/lib/http/record-id";
import { noContent, withProject } from "@/lib/http/with-project";

type Params = { projectID: string; inviteID: string };

export const DELETE = withProject<Params>(
  "invites.write",
  async (_req, ctx, params) => {
    await revokeInvite(ctx, readRecordId(params.inviteID, "invitation"));
    return noContent();
  },
  { sessions: true },
);
