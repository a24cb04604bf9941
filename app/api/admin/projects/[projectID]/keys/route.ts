import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { createKey } from "@/lib/keys/create-key";
import { listKeys } from "@/lib/keys/list-keys";
import { createKeyBody, listKeysQuery } from "@/lib/keys/schemas";

export const GET = adminRoute("keys.read", (req, ctx) => listKeys(ctx, readQuery(req, listKeysQuery)));

export const POST = adminRoute("keys.write", { status: 201 }, async (req, ctx) =>
  createKey(ctx, await readJson(req, createKeyBody)),
);
