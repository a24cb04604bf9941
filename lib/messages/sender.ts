import postgres from "postgres";
import { databaseUrl, type Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { configuredOrigin, publicOrigin } from "@/lib/http/public-origin";
import { log } from "@/lib/observability/logger";
import { tickBroadcasts } from "@/lib/broadcasts/tick-broadcasts";
import { claimMessages } from "./claim-messages";
import { deliver } from "./deliver";
import { MESSAGES_CHANNEL } from "./notify";
import { recordDeliveries, type Recorded } from "./record-deliveries";
import { loadSendFacts } from "./send-facts";

export interface MessageSenderOptions {
  /** Messages claimed and not yet recorded in this process (MESSAGES_MAX_IN_FLIGHT, default 400). */
  maxInFlight: number;
  /** Poll when no notification came (retries and quiet hours falling due): MESSAGES_POLL_MS, default 500. */
  pollMs: number;
  /** A claimed message is no other sender's for this long (MESSAGES_LEASE_SECONDS, default 60). */
  leaseSeconds: number;
}

export function messageSenderOptions(env = process.env): MessageSenderOptions {
  return {
    maxInFlight: Number(env.MESSAGES_MAX_IN_FLIGHT ?? 400),
    pollMs: Number(env.MESSAGES_POLL_MS ?? 500),
    leaseSeconds: Number(env.MESSAGES_LEASE_SECONDS ?? 60),
  };
}

/**
 * A worker's message sender: claims due messages, sends each (deliver.ts) and records the outcomes by
 * group commit (whatever finished while the previous write was in flight goes in the next one), so a
 * message sent is recorded within one write's time, the window in which a killed worker's message is
 * sent again (with the same Message-ID). Starts due broadcasts and closes finished ones on each round.
 */
export async function startMessageSender(ctx: AppContext<Db>, opts: MessageSenderOptions = messageSenderOptions()) {
  // Read per message, not at start: a worker without AUTH_URL in production still runs everything else,
  // and its messages wait (their lease brings them back) with the missing setting named in the log.
  const origin = () => configuredOrigin() ?? publicOrigin();
  let inFlight = 0;
  let stopping = false;
  let pending: Recorded[] = [];
  let wake: () => void = () => {};
  let woken = false;
  const poke = () => {
    woken = true;
    wake();
  };
  const listener = postgres(databaseUrl(), { max: 1, onnotice: () => {} });
  await listener.listen(MESSAGES_CHANNEL, poke);
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

  let writing: Promise<void> | null = null;
  const flush = (): Promise<void> => {
    if (writing) return writing;
    writing = (async () => {
      while (pending.length) {
        const batch = pending;
        pending = [];
        try {
          await recordDeliveries(ctx, { recorded: batch });
        } catch (err) {
          log.error({ err }, "recording messages failed; retrying");
          pending = [...batch, ...pending];
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    })().finally(() => {
      writing = null;
    });
    return writing;
  };

  const run = async (f: Awaited<ReturnType<typeof loadSendFacts>>[number]) => {
    try {
      const delivery = await deliver(ctx, { facts: f, origin: origin() });
      pending.push({ projectId: f.project_id, id: f.id, delivery });
      void flush();
    } catch (err) {
      log.error({ err, message: f.id }, "sending a message failed unexpectedly; its lease lets it come due again");
    } finally {
      inFlight--;
      if (inFlight === Math.floor(opts.maxInFlight / 2)) poke();
    }
  };

  let lastTick = 0;
  const loop = async () => {
    while (!stopping) {
      woken = false;
      try {
        if (Date.now() - lastTick > 1000) {
          lastTick = Date.now();
          await tickBroadcasts(ctx);
        }
        const room = opts.maxInFlight - inFlight;
        if (room >= opts.maxInFlight / 2) {
          const claimed = await claimMessages(ctx, { limit: room, leaseSeconds: opts.leaseSeconds });
          const keys = claimed.map((c) => ({ projectId: c.project_id, id: c.id }));
          const facts = await loadSendFacts(ctx, { keys, render: true });
          for (const f of facts) {
            inFlight++;
            void run(f);
          }
          if (claimed.length === room) continue;
        }
        await sleep(opts.pollMs);
      } catch (err) {
        log.error({ err }, "claiming messages failed; retrying");
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
  const running = loop();

  return {
    /** Stops claiming, lets messages in flight finish, records them. */
    async stop() {
      stopping = true;
      wake();
      await running;
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
      await flush();
      await listener.end({ timeout: 2 });
    },
  };
}
