import { sql } from "drizzle-orm";
import { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { decodeCursor, page } from "@/lib/http/pagination";
import { deliveryViews, LOG_ATTEMPTS, LOG_RESPONSE_CHARS } from "./delivery-view";
import { getDestination } from "./get-destination";
import type { listDeliveriesQuery } from "./schemas";

/** A destination's delivery log, newest first, optionally one state; each message with its newest attempts. */
export async function listDeliveries(
  ctx: ProjectContext,
  { destinationId, query: q }: { destinationId: string; query: z.output<typeof listDeliveriesQuery> },
) {
  await getDestination(ctx, destinationId);
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await deliveryViews(ctx, {
    where: sql`dd.destination_id = ${destinationId}::uuid
      ${q.state ? sql`and dd.state = ${q.state}` : sql``}
      ${after ? sql`and dd.id < ${after[0]}::uuid` : sql``}`,
    limit: q.limit + 1,
    attempts: LOG_ATTEMPTS,
    responseChars: LOG_RESPONSE_CHARS,
  });
  return page(rows, q.limit, (r) => [r.id]);
}
