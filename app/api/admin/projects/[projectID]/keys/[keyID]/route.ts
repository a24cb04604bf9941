import { readRecordId } from "@/lib/http/record-id";
import { readJson } from "@/lib/http/read-json";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { changeKey } from "@/lib/keys/change-key";
import { revokeKey } from "@/lib/keys/revoke-key";
import { changeKeyBody } from "@/lib/keys/schemas";

type Params = { projectID: string; keyID: string };

export const DELETE = withProject<Params>(
  "keys.write",
  async (_req, ctx, params) => {
    await revokeKey(ctx, readRecordId(params.keyID, "API key"));
    return noContent();
  },
  { sessions: true },
);

export const PATCH = withProject<Params>(
  "keys.write",
  async (req, ctx, params) =>
    json(
      await changeKey(ctx, { keyId: readRecordId(params.keyID, "API key"), body: await readJson(req, changeKeyBody) }),
    ),
  { sessions: true },
);
