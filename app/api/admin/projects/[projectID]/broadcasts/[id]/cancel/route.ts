import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { cancelBroadcast } from "@/lib/broadcasts/cancel-broadcast";

type Params = { projectID: string; id: string };

export const POST = adminRoute<Params>("broadcasts.write", (_req, ctx, p) =>
  cancelBroadcast(ctx, readRecordId(p.id, "broadcast")),
);
