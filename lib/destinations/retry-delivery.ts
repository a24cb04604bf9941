import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { can, PERMISSIONS } from "@/lib/access/permissions";
import { Forbidden, NotFound } from "@/lib/http/errors";
import { deliveryViews } from "./delivery-view";
import { DESTINATIONS_CHANNEL } from "./message-sql";
import type { DeliveryView } from "./schemas";

/**
 * Sends a message again now, with its original `webhook-id`, and gives it a fresh retry schedule. A
 * delivered message is sent once more (receivers de-duplicate on the id), which is a replay: it needs the
 * replay permission (admin), or an editor could re-send a message without end. A pending or failed one is
 * simply due now.
 */
export async function retryDelivery(
  ctx: ProjectContext,
  { destinationId, deliveryId }: { destinationId: string; deliveryId: string },
): Promise<DeliveryView> {
  const mayReplay = ctx.actor.kind === "system" || can(ctx.actor.role, "destinations.replay");
  const of = sql`project_id = ${ctx.projectId}::uuid and destination_id = ${destinationId}::uuid and id = ${deliveryId}::uuid`;
  // The role is checked in the statement itself: a message delivered meanwhile is not re-sent by an editor.
  const rows = await ctx.db.execute(sql`
    update destination_deliveries set state = 'pending', tries = 0, next_attempt_at = now(), finished_at = null
    where ${of} and (state <> 'delivered' or ${mayReplay})
    returning id`);
  if (!rows.length) {
    const [found] = await ctx.db.execute(sql`select 1 from destination_deliveries where ${of}`);
    if (!found) throw new NotFound("No delivery with this id for this destination.");
    throw new Forbidden(
      `This message was delivered: sending it again is a replay, which needs the ${PERMISSIONS["destinations.replay"]} role or above.`,
    );
  }
  await ctx.db.execute(sql`select pg_notify(${DESTINATIONS_CHANNEL}, '')`);
  const [view] = await deliveryViews(ctx, { where: sql`dd.id = ${deliveryId}::uuid`, limit: 1 });
  return view!;
}
