import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { deliveryViews } from "./delivery-view";
import type { DeliveryView } from "./schemas";

/** At most this many deliveries of one event are read (one per destination, plus replays). */
const MAX_PER_EVENT = 200;

/**
 * The deliveries one event became (one per subscribed destination, plus replays), newest first, each with
 * its state, attempts and times. For the event trace.
 */
export function listEventDeliveries(ctx: ProjectContext, eventId: string): Promise<DeliveryView[]> {
  return deliveryViews(ctx, { where: sql`dd.event_id = ${eventId}::uuid`, limit: MAX_PER_EVENT });
}
