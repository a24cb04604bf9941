import postgres from "postgres";
import { databaseUrl, type Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { log } from "@/lib/observability/logger";
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

/**
 * Outcomes waiting to be written, at most (plus what is in flight): past it the sender claims nothing
 * more until they are written, so a database that refuses or is away never grows the list without bound.
 */
export const MAX_PENDING_OUTCOMES = 20_000;

export interface SenderOptions {
  /**
   * Messages in flight (posting or queued on its connections) per destination in this process:
   * DESTINATION_CONCURRENCY connections (default 16) times CLAIM_AHEAD (16).
   */
  perDestination: number;
  /**
   * Attempts in flight in this process over all destinations (DESTINATION_MAX_IN_FLIGHT, default 4096),
   * shared by project and then by destination (claim-due.ts), so dead destinations, however many, never
   * crowd out a live one.
   */
  maxInFlight: number;
  /** Poll when no notification came (a missed NOTIFY, a retry falling due): DESTINATION_POLL_MS, default 500. */
  pollMs: number;
}

export function senderOptions(env = process.env): SenderOptions {
  return {
    perDestination: CONNECTIONS_PER_DESTINATION * CLAIM_AHEAD,
    maxInFlight: Number(env.DESTINATION_MAX_IN_FLIGHT ?? 4096),
    pollMs: Number(env.DESTINATION_POLL_MS ?? 500),
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
 * The delivery sender of a worker: claims due deliveries (at most a destination's share of the budget in
 * flight, so a slow or dead receiver only ever holds its own slots), posts each on the shared
 * keep-alive agent, and writes outcomes in batches. Woken by NOTIFY when the pipeline decides deliveries
 * and whenever a slot frees; polls for retries falling due. Any number of workers run one each.
 */
export async function startSender(ctx: AppContext<Db>, opts: SenderOptions = senderOptions()) {
  const schedule = retrySchedule();
  const disableAfter = disableAfterMs();
  const busy = new Map<string, number>();
  /** Each destination's share of the budget as of its last claim (claim-due.ts). */
  const shares = new Map<string, number>();
  let inFlight = 0;
  let stopping = false;
  let pending: Outcome[] = [];
  let wake: () => void = () => {};
  let woken = false;
  const poke = () => {
    woken = true;
    wake();
  };
  const listener = postgres(databaseUrl(), { max: 1, onnotice: () => {} });
  await listener.listen(DESTINATIONS_CHANNEL, poke);

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        wake = () => {};
        resolve();
      }
      wake = done;
    });

  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    flushing = flushing.then(async () => {
      while (pending.length) {
        const batch = pending;
        pending = [];
        let unwritten: Outcome[];
        try {
          unwritten = await recordOutcomes(ctx, { outcomes: batch, disableAfterMs: disableAfter });
        } catch (err) {
          log.error({ err }, "recording delivery attempts failed");
          unwritten = batch;
        }
        if (unwritten.length) {
          log.warn({ outcomes: unwritten.length }, "delivery outcomes not written (database away); retrying");
          pending = [...unwritten, ...pending];
          await new Promise((r) => setTimeout(r, 1000));
          if (stopping && pending.length) return;
        }
      }
    });
    return flushing;
  };
  const flushTimer = setInterval(() => void flush(), 100);

  const send = async (d: ClaimedDelivery) => {
    try {
      const result = await postMessage(d.url, d.secrets, webhookIdOf(d.id), d.body);
      pending.push(outcomeOf(d, result, schedule));
      if (pending.length >= 500) void flush();
    } finally {
      inFlight--;
      const n = (busy.get(d.destinationId) ?? 1) - 1;
      if (n > 0) busy.set(d.destinationId, n);
      else {
        busy.delete(d.destinationId);
        shares.delete(d.destinationId);
      }
      // Claim again once half a destination's share is free, not after every message: one claim then
      // fetches a hundred, and a busy sender does not spend its database on claims of one or two rows.
      // The process-wide bound wakes the loop once, when it crosses half (it was full: room <= 0).
      const share = shares.get(d.destinationId) ?? opts.perDestination;
      if (n <= share / 2 || inFlight === Math.floor(opts.maxInFlight / 2)) poke();
    }
  };

  const loop = async () => {
    while (!stopping) {
      woken = false;
      const room = opts.maxInFlight - inFlight;
      if (room <= 0 || pending.length >= MAX_PENDING_OUTCOMES) {
        await sleep(opts.pollMs);
        continue;
      }
      try {
        const claimed = await claimDue(ctx, {
          perDestination: opts.perDestination,
          maxInFlight: opts.maxInFlight,
          busy,
          limit: room,
        });
        for (const d of claimed) {
          inFlight++;
          shares.set(d.destinationId, d.share);
          busy.set(d.destinationId, (busy.get(d.destinationId) ?? 0) + 1);
          void send(d);
        }
        // Wait for a wake-up (slots freed, a NOTIFY) before claiming again, also after a claim that found
        // work: claiming again at once fetched only the one or two slots freed meanwhile, so a busy
        // sender spent a claim round trip on every few messages.
        await sleep(opts.pollMs);
      } catch (err) {
        log.error({ err }, "claiming deliveries failed; retrying");
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
  const running = loop();

  return {
    /** Stops claiming, lets attempts in flight finish (each at most 10 s), writes their outcomes. */
    async stop() {
      stopping = true;
      wake();
      await running;
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
      clearInterval(flushTimer);
      await flush();
      await listener.end({ timeout: 2 });
    },
  };
}
