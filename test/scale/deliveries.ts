import type postgres from "postgres";
import { webhookIdOf } from "../../lib/destinations/sign";
import type { startReceiver } from "../../scripts/test/webhook-receiver";
import { waitFor } from "../../scripts/test/worker";

/** Waits until no message of the destination is still pending (a claim cut by a failover waits out its lease). */
export async function waitDelivered(sql: postgres.Sql, projectId: string, destinationId: string, timeoutMs = 90_000) {
  await waitFor(
    async () => {
      const [r] = await sql`select count(*)::int as n from destination_deliveries
        where project_id = ${projectId} and destination_id = ${destinationId} and state = 'pending'`;
      return r!.n === 0;
    },
    timeoutMs,
    "every message delivered",
  );
}

/**
 * Holds a destination to "each message acknowledged once": every recorded event it subscribes to has one
 * delivery, delivered; the loopback receiver got each message (by webhook-id) exactly once and nothing it
 * was not meant to get. Returns every broken promise as a sentence (empty when all hold).
 */
export async function verifyDeliveries(
  sql: postgres.Sql,
  projectId: string,
  destinationId: string,
  eventName: string,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
): Promise<string[]> {
  const problems: string[] = [];
  const [counts] = await sql`select
      (select count(*)::int from events where project_id = ${projectId} and name = ${eventName}) as events,
      (select count(*)::int from destination_deliveries where project_id = ${projectId} and destination_id = ${destinationId}) as deliveries,
      (select count(distinct event_id)::int from destination_deliveries where project_id = ${projectId} and destination_id = ${destinationId}) as distinct_events,
      (select count(*)::int from destination_deliveries where project_id = ${projectId} and destination_id = ${destinationId} and state <> 'delivered') as undelivered`;
  if (counts!.events !== counts!.deliveries || counts!.deliveries !== counts!.distinct_events || counts!.undelivered)
    problems.push(`not one delivered message per ${eventName} event: ${JSON.stringify(counts)}`);
  const ids = new Set(
    (
      await sql<{ id: string }[]>`select id from destination_deliveries
        where project_id = ${projectId} and destination_id = ${destinationId}`
    ).map((r) => webhookIdOf(r.id)),
  );
  const got = new Map<string, number>();
  for (const r of receiver.received) got.set(r.webhookId, (got.get(r.webhookId) ?? 0) + 1);
  const missing = [...ids].filter((id) => !got.has(id));
  const twice = [...got].filter(([id, n]) => ids.has(id) && n > 1);
  const stray = [...got.keys()].filter((id) => !ids.has(id));
  if (missing.length) problems.push(`messages never received (${missing.length}): ${missing.slice(0, 5).join(", ")}`);
  if (twice.length)
    problems.push(`messages received more than once (${twice.length}): ${JSON.stringify(twice.slice(0, 5))}`);
  if (stray.length) problems.push(`messages received that no delivery names (${stray.length})`);
  if (receiver.unverified.length) problems.push(`messages with a bad signature: ${receiver.unverified.length}`);
  return problems;
}
