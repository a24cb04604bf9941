import { readRecordId } from "@/lib/http/record-id";
import { noContent, withProject } from "@/lib/http/with-project";
import { revokeKey } from "@/lib/keys/revoke-key";

type Params = { projectID: string; keyID: string };

export const DELETE = withProject<Params>(
  "keys.write",
  async (_req, ctx, params) => {
    await revokeKey(ctx, readRecordId(params.keyID, "API key"));
    return noContent();
  },
  { sessions: true },
);
