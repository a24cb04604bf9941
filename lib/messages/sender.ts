import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { configuredOrigin, publicOrigin } from "@/lib/http/public-origin";
import { leasedLimits, startLeasedSender } from "@/lib/outbound/leased-sender";
import { renewLeases } from "@/lib/outbound/renew-leases";
import { claimMessages } from "./claim-messages";
import { deliver } from "./deliver";
import { MESSAGES_CHANNEL } from "./notify";
import { recordDeliveries, type Recorded } from "./record-deliveries";
import { loadSendFacts, type SendFacts } from "./send-facts";

/**
 * The limits of a worker's message sender (docs/messages.md): MESSAGES_MAX_IN_FLIGHT (400 claimed and not
 * yet recorded, shared between the projects with messages due), MESSAGES_POLL_MS (500: retries and quiet
 * hours falling due), MESSAGES_LEASE_SECONDS (60, renewed while held), MESSAGES_GATHER_MS (25: how long a
 * write of outcomes waits for more to join it).
 */
export const messageSenderOptions = (env = process.env) =>
  leasedLimits("MESSAGES", { maxInFlight: 400, pollMs: 500, leaseSeconds: 60, gatherMs: 25 }, env);

const LEASE = {
  table: "messages",
  column: "lease_until",
  unfinished: sql`w.state = 'queued' and w.lease_until is not null`,
};

type Claimed = SendFacts & { projectId: string; group: string; share: number };

/**
 * A worker's message sender, on the leased runner (lib/outbound/leased-sender.ts): claims due messages
 * (each project its share), sends each (deliver.ts), renews their leases while they wait in a throttle
 * or a pool's queue, and records the outcomes by group commit, so a message sent is recorded within one
 * write's time, the window in which a killed worker's message is sent again (with the same Message-ID).
 */
export async function startMessageSender(ctx: AppContext<Db>, opts = messageSenderOptions()) {
  // Read per message, not at start: a worker without AUTH_URL in production still runs everything else,
  // and its messages wait (their lease brings them back) with the missing setting named in the log.
  const origin = () => configuredOrigin() ?? publicOrigin();
  return startLeasedSender<Claimed, Recorded>({
    name: "messages",
    channel: MESSAGES_CHANNEL,
    ...opts,
    claim: async ({ held, limit }) => {
      const { maxInFlight, leaseSeconds } = opts;
      const claimed = await claimMessages(ctx, { held, limit, maxInFlight, leaseSeconds });
      const share = new Map(claimed.map((c) => [c.id, c.share]));
      const keys = claimed.map((c) => ({ projectId: c.project_id, id: c.id }));
      return (await loadSendFacts(ctx, { keys, render: true })).map((f) => ({
        ...f,
        projectId: f.project_id,
        group: f.project_id,
        share: share.get(f.id) ?? 1,
      }));
    },
    send: async (f) => ({
      projectId: f.project_id,
      id: f.id,
      delivery: await deliver(ctx, { facts: f, origin: origin() }),
    }),
    record: (recorded) => recordDeliveries(ctx, { recorded }),
    renew: (held) => renewLeases(ctx.db, LEASE, { held, leaseSeconds: opts.leaseSeconds }),
    idOf: (r) => r.id,
  });
}
