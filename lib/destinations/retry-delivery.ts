import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { deliveryViews } from "./delivery-view";
import { DESTINATIONS_CHANNEL } from "./message-sql";
import type { DeliveryView } from "./schemas";

/**
 * Sends a message again now, with its original `webhook-id`, and gives it a fresh retry schedule. A
 * delivered message is sent once more (receivers de-duplicate on the id); a pending one is simply due now.
 */
export async function retryDelivery(
  ctx: ProjectContext,
  { destinationId, deliveryId }: { destinationId: string; deliveryId: string },
): Promise<DeliveryView> {
  const rows = await ctx.db.execute(sql`
    update destination_deliveries set state = 'pending', tries = 0, next_attempt_at = now(), finished_at = null
    where project_id = ${ctx.projectId}::uuid and destination_id = ${destinationId}::uuid and id = ${deliveryId}::uuid
    returning id`);
  if (!rows.length) throw new NotFound("No delivery with this id for this destination.");
  await ctx.db.execute(sql`select pg_notify(${DESTINATIONS_CHANNEL}, '')`);
  const [view] = await deliveryViews(ctx, { where: sql`dd.id = ${deliveryId}::uuid`, limit: 1 });
  return view!;
}
