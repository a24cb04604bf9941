import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { sql } from "drizzle-orm";
import { leasedLimits, startLeasedSender } from "@/lib/outbound/leased-sender";
import { renewLeases } from "@/lib/outbound/renew-leases";
import { claimDue, type ClaimedDelivery } from "./claim-due";
import { CONNECTIONS_PER_DESTINATION } from "./http-agent";
import { DESTINATIONS_CHANNEL } from "./message-sql";
import { postMessage } from "./post-message";
import type { Outcome } from "./record-attempts";
import { recordOutcomes } from "./record-outcomes";
import { disableAfterMs, nextAttemptDelay, retrySchedule } from "./retry-schedule";
import { webhookIdOf } from "./sign";

/**
 * Messages claimed ahead per destination, per connection: with only as many claimed as connections, every
 * message waited for a claim round trip; with a claim's worth queued on the Agent's pool (claimed again at
 * half), connections stay busy while the next claim is on its way, even on a loaded database.
 */
const CLAIM_AHEAD = 16;

const LEASE = {
  table: "destination_deliveries",
  column: "next_attempt_at",
  unfinished: sql`w.state || '' = 'pending'`,
};

/**
 * The limits of a worker's delivery sender (docs/destinations.md): DESTINATION_MAX_IN_FLIGHT (4096
 * attempts claimed and not yet recorded, shared by project and then by destination, so dead destinations,
 * however many, never crowd out a live one), DESTINATION_POLL_MS (500: a missed NOTIFY, a retry falling
 * due), DESTINATION_LEASE_SECONDS (30, renewed while held). An unwritten outcome counts against the
 * budget, so a database that refuses or is away never grows them without bound. `perDestination`: DESTINATION_CONCURRENCY connections (16) times CLAIM_AHEAD.
 */
export function senderOptions(env = process.env) {
  return {
    ...leasedLimits("DESTINATION", { maxInFlight: 4096, pollMs: 500, leaseSeconds: 30 }, env),
    perDestination: CONNECTIONS_PER_DESTINATION * CLAIM_AHEAD,
  };
}

/** What the outcome of one attempt means for its delivery: done, due again later, or spent. */
export function outcomeOf(d: ClaimedDelivery, r: Awaited<ReturnType<typeof postMessage>>, schedule: number[]): Outcome {
  const delay = r.ok || r.status === 410 ? null : nextAttemptDelay(d.tries + 1, schedule);
  return {
    ...r,
    projectId: d.projectId,
    deliveryId: d.id,
    destinationId: d.destinationId,
    nextAttemptAt: delay === null ? null : new Date(r.at.getTime() + delay),
  };
}

/**
 * The delivery sender of a worker, on the leased runner (lib/outbound/leased-sender.ts): claims due
 * deliveries (at most a destination's share of the budget, so a slow or dead receiver only ever holds its
 * own slots), posts each on the shared keep-alive agent, and writes outcomes in batches.
 */
export async function startSender(ctx: AppContext<Db>, opts = senderOptions()) {
  const schedule = retrySchedule();
  const disableAfter = disableAfterMs();
  return startLeasedSender({
    name: "deliveries",
    channel: DESTINATIONS_CHANNEL,
    ...opts,
    claim: async ({ held, limit }) =>
      (
        await claimDue(ctx, {
          perDestination: opts.perDestination,
          maxInFlight: opts.maxInFlight,
          held,
          limit,
          leaseSeconds: opts.leaseSeconds,
        })
      ).map((d) => ({ ...d, group: d.destinationId })),
    send: async (d) => outcomeOf(d, await postMessage(d.url, d.secrets, webhookIdOf(d.id), d.body), schedule),
    record: (outcomes) => recordOutcomes(ctx, { outcomes, disableAfterMs: disableAfter }),
    // next_attempt_at is the lease while a delivery is pending (claimDue); `|| ''` keeps the primary key.
    renew: (held) => renewLeases(ctx.db, LEASE, { held, leaseSeconds: opts.leaseSeconds }),
    idOf: (o) => o.deliveryId,
  });
}
