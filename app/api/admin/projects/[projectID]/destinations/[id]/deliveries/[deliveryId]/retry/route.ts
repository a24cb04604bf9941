import { retryDelivery } from "@/lib/destinations/retry-delivery";
import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";

type Params = { projectID: string; id: string; deliveryId: string };

export const POST = withProject<Params>(
  "destinations.write",
  async (_req, ctx, p) =>
    json(
      await retryDelivery(ctx, {
        destinationId: readRecordId(p.id, "destination"),
        deliveryId: readRecordId(p.deliveryId, "delivery"),
      }),
      202,
    ),
  { sessions: true },
);
