import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { createBroadcast } from "@/lib/broadcasts/create-broadcast";
import { listBroadcasts } from "@/lib/broadcasts/list-broadcasts";
import { createBroadcastBody, listBroadcastsQuery } from "@/lib/broadcasts/schemas";

export const GET = adminRoute("messages.read", (req, ctx) => listBroadcasts(ctx, readQuery(req, listBroadcastsQuery)));

export const POST = adminRoute("broadcasts.write", { status: 201 }, async (req, ctx) =>
  createBroadcast(ctx, await readJson(req, createBroadcastBody)),
);
