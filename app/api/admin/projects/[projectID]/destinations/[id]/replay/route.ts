import { replayDeliveries } from "@/lib/destinations/replay-deliveries";
import { replayBody } from "@/lib/destinations/schemas";
import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

type Params = { projectID: string; id: string };

export const POST = adminRoute<Params>("destinations.replay", { status: 202 }, async (req, ctx, p) =>
  replayDeliveries(ctx, {
    destinationId: readRecordId(p.id, "destination"),
    body: await readJson(req, replayBody),
  }),
);
