import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { createKey } from "@/lib/keys/create-key";
import { listKeys } from "@/lib/keys/list-keys";
import { createKeyBody, listKeysQuery } from "@/lib/keys/schemas";

export const GET = withProject(
  "keys.read",
  async (req, ctx) => json(await listKeys(ctx, readQuery(req, listKeysQuery))),
  { sessions: true },
);

export const POST = withProject(
  "keys.write",
  async (req, ctx) => json(await createKey(ctx, await readJson(req, createKeyBody)), 201),
  { sessions: true },
);
