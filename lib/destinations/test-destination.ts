import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { unseal } from "@/lib/signing/seal";
import { deliveryViews } from "./delivery-view";
import { postMessage } from "./post-message";
import { recordAttempts } from "./record-attempts";
import { disableAfterMs } from "./retry-schedule";
import type { DeliveryView } from "./schemas";
import { webhookIdOf } from "./sign";

export const PING_EVENT = "relay.ping";

/**
 * Sends a signed ping (`{"type": "relay.ping", ...}`) now, from this process, and answers with its
 * delivery and the attempt's outcome; it is kept in the log like any message, and not retried.
 */
export async function testDestination(ctx: ProjectContext, id: string): Promise<DeliveryView> {
  const [d] = await ctx.db.execute<{ url: string; secret_sealed: string; previous_secret_sealed: string | null }>(sql`
    select url, secret_sealed, case when previous_secret_until > now() then previous_secret_sealed end as previous_secret_sealed
    from destinations where project_id = ${ctx.projectId}::uuid and id = ${id}::uuid`);
  if (!d) throw new NotFound("No destination with this id in this project.");
  const payload = {
    type: PING_EVENT,
    timestamp: new Date().toISOString(),
    data: { destination_id: id, message: "A test message from Relay." },
  };
  const [delivery] = await ctx.db.execute<{ id: string }>(sql`
    insert into destination_deliveries (project_id, destination_id, event_name, payload, state, next_attempt_at)
    values (${ctx.projectId}::uuid, ${id}::uuid, ${PING_EVENT}, ${JSON.stringify(payload)}::jsonb, 'pending', now() + interval '1 hour')
    returning id`);
  const secrets = {
    current: unseal(d.secret_sealed) ?? "",
    previous: d.previous_secret_sealed ? unseal(d.previous_secret_sealed) : null,
  };
  const result = await postMessage(d.url, secrets, webhookIdOf(delivery!.id), JSON.stringify(payload));
  await recordAttempts(ctx, {
    outcomes: [
      { ...result, projectId: ctx.projectId, deliveryId: delivery!.id, destinationId: id, nextAttemptAt: null },
    ],
    disableAfterMs: disableAfterMs(),
  });
  const [view] = await deliveryViews(ctx, { where: sql`dd.id = ${delivery!.id}::uuid`, limit: 1 });
  return view!;
}
