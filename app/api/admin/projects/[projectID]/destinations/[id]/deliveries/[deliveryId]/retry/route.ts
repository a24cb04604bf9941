import { retryDelivery } from "@/lib/destinations/retry-delivery";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

type Params = { projectID: string; id: string; deliveryId: string };

export const POST = adminRoute<Params>("destinations.write", { status: 202 }, (_req, ctx, p) =>
  retryDelivery(ctx, {
    destinationId: readRecordId(p.id, "destination"),
    deliveryId: readRecordId(p.deliveryId, "delivery"),
  }),
);
