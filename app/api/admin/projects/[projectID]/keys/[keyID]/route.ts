import { readRecordId } from "@/lib/http/record-id";
import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { changeKey } from "@/lib/keys/change-key";
import { revokeKey } from "@/lib/keys/revoke-key";
import { changeKeyBody } from "@/lib/keys/schemas";

type Params = { projectID: string; keyID: string };

export const DELETE = adminRoute<Params>("keys.write", { status: 204 }, (_req, ctx, params) =>
  revokeKey(ctx, readRecordId(params.keyID, "API key")),
);

export const PATCH = adminRoute<Params>("keys.write", async (req, ctx, params) =>
  changeKey(ctx, { keyId: readRecordId(params.keyID, "API key"), body: await readJson(req, changeKeyBody) }),
);
