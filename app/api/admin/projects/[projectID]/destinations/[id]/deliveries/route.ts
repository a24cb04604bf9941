import { listDeliveries } from "@/lib/destinations/list-deliveries";
import { listDeliveriesQuery } from "@/lib/destinations/schemas";
import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>(
  "destinations.read",
  async (req, ctx, p) =>
    json(
      await listDeliveries(ctx, {
        destinationId: readRecordId(p.id, "destination"),
        query: readQuery(req, listDeliveriesQuery),
      }),
    ),
  { sessions: true },
);
