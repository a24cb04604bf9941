import { sql } from "drizzle-orm";
import { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { deliveryViews } from "./delivery-view";

export const listUserDeliveriesQuery = paginationQuery;

/**
 * Deliveries of one user's events, newest first, keyset-paginated (`next_cursor`), for the user timeline.
 * Reads `destination_deliveries_user_idx`.
 */
export async function listUserDeliveries(
  ctx: ProjectContext,
  input: { userId: string } & z.output<typeof listUserDeliveriesQuery>,
) {
  const after = decodeCursor(input.cursor, z.tuple([z.uuid()]));
  const rows = await deliveryViews(
    ctx,
    sql`dd.user_id = ${input.userId}::uuid ${after ? sql`and dd.id < ${after[0]}::uuid` : sql``}`,
    input.limit + 1,
  );
  return page(rows, input.limit, (r) => [r.id]);
}
