import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { deleteBroadcast } from "@/lib/broadcasts/delete-broadcast";
import { getBroadcast } from "@/lib/broadcasts/get-broadcast";
import { updateBroadcastBody } from "@/lib/broadcasts/schemas";
import { updateBroadcast } from "@/lib/broadcasts/update-broadcast";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("messages.read", (_req, ctx, p) =>
  getBroadcast(ctx, readRecordId(p.id, "broadcast")),
);

export const PATCH = adminRoute<Params>("broadcasts.write", async (req, ctx, p) =>
  updateBroadcast(ctx, { id: readRecordId(p.id, "broadcast"), patch: await readJson(req, updateBroadcastBody) }),
);

export const DELETE = adminRoute<Params>("broadcasts.write", { status: 204 }, (_req, ctx, p) =>
  deleteBroadcast(ctx, readRecordId(p.id, "broadcast")),
);
