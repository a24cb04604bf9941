import { replayDeliveries } from "@/lib/destinations/replay-deliveries";
import { replayBody } from "@/lib/destinations/schemas";
import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";

type Params = { projectID: string; id: string };

export const POST = withProject<Params>(
  "destinations.replay",
  async (req, ctx, p) =>
    json(
      await replayDeliveries(ctx, {
        destinationId: readRecordId(p.id, "destination"),
        body: await readJson(req, replayBody),
      }),
      202,
    ),
  { sessions: true },
);
