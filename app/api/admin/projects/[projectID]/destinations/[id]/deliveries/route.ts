import { listDeliveries } from "@/lib/destinations/list-deliveries";
import { listDeliveriesQuery } from "@/lib/destinations/schemas";
import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("destinations.read", (req, ctx, p) =>
  listDeliveries(ctx, {
    destinationId: readRecordId(p.id, "destination"),
    query: readQuery(req, listDeliveriesQuery),
  }),
);
