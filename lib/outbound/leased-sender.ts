import { getListenSql } from "@/db/client";
import { log } from "@/lib/observability/logger";
import type { HeldCounts } from "./fair-share";

/** One piece of claimed work: its project, its id, its group for the fair share, and that share. */
export interface LeasedWork {
  projectId: string;
  id: string;
  /** What the fair share splits by within a project (a destination; the project itself for messages). */
  group: string;
  /** The group's share of the budget as of this claim (fair-share.ts). */
  share: number;
}

export interface LeasedLimits {
  /**
   * Work claimed and not yet recorded in this process, at most (the in-flight budget): an outcome waiting
   * to be written still counts, so a database that refuses or is away never grows the pending outcomes
   * past it; the sender claims nothing more until they are written.
   */
  maxInFlight: number;
  /** Poll when no notification came (retries falling due, a missed NOTIFY). */
  pollMs: number;
  /** A claim is no other sender's for this long; renewed every quarter of it while the work is held. */
  leaseSeconds: number;
  /**
   * Milliseconds a write of outcomes waits for more to finish before it starts (0: none). A busy sender
   * otherwise wrote every few outcomes, and its database spent itself on statements rather than rows.
   */
  gatherMs?: number;
}

/**
 * A sender's limits from the environment: `<PREFIX>_MAX_IN_FLIGHT`, `<PREFIX>_POLL_MS`,
 * `<PREFIX>_LEASE_SECONDS`, each falling back to the sender's default.
 */
export function leasedLimits(prefix: string, defaults: LeasedLimits, env = process.env): LeasedLimits {
  const read = (name: string, fallback: number) => Number(env[`${prefix}_${name}`] ?? fallback);
  return {
    maxInFlight: read("MAX_IN_FLIGHT", defaults.maxInFlight),
    pollMs: read("POLL_MS", defaults.pollMs),
    leaseSeconds: read("LEASE_SECONDS", defaults.leaseSeconds),
    gatherMs: read("GATHER_MS", defaults.gatherMs ?? 0),
  };
}

export interface LeasedSpec<W extends LeasedWork, O> extends LeasedLimits {
  /** What the work is, for log lines ("deliveries", "messages"). */
  name: string;
  /** The NOTIFY channel that says new work is due. */
  channel: string;
  /** Claims at most `limit` due pieces with a lease of `leaseSeconds`, fairly against what is `held`. */
  claim: (input: { held: HeldCounts; limit: number }) => Promise<W[]>;
  /** Does the work; null when there is nothing to record (its lease brings it back). Never throws. */
  send: (work: W) => Promise<O | null>;
  /** Writes outcomes (writeIsolating inside); answers those left unwritten because the database was away. */
  record: (batch: O[]) => Promise<O[]>;
  /** Moves the leases of these held pieces `leaseSeconds` ahead (only while their work is not recorded). */
  renew: (held: W[]) => Promise<void>;
  /** The work an outcome is about. */
  idOf: (outcome: O) => string;
}

/**
 * The one claim → lease → send → record runner of outbound work (webhook deliveries, messages). Claims
 * due work against the process's budget split fairly by project and group (fair-share.ts), so a slow,
 * dead or throttled receiver only ever holds its own share; renews the lease of everything it holds
 * (sending, waiting in a throttle or an SMTP pool's queue, or an outcome not yet written), so nothing is
 * claimed again while this process still has it; writes outcomes by group commit (whatever finished
 * while one write was in flight goes in the next), each counted against the budget until it is written. Woken by NOTIFY on
 * `channel` and whenever slots free; polls for work falling due. Any number of workers run one each.
 */
export async function startLeasedSender<W extends LeasedWork, O>(spec: LeasedSpec<W, O>) {
  const held = new Map<string, W>();
  const busy: HeldCounts = new Map();
  const shares = new Map<string, number>();
  let inFlight = 0;
  let stopping = false;
  let pending: O[] = [];
  let wake: () => void = () => {};
  let woken = false;
  const poke = () => {
    woken = true;
    wake();
  };
  const listening = await getListenSql().listen(spec.channel, poke);
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

  const release = (w: W) => {
    if (!held.delete(w.id)) return;
    const n = (busy.get(w.group)?.n ?? 1) - 1;
    if (n > 0) busy.set(w.group, { projectId: w.projectId, n });
    else {
      busy.delete(w.group);
      shares.delete(w.group);
    }
    // Claim again once half a group's share is free, not after every piece: one claim then fetches many,
    // and a busy sender does not spend its database on claims of one or two rows. The process-wide bound
    // wakes the loop once, when it crosses half (it was full).
    const share = shares.get(w.group) ?? spec.maxInFlight;
    if (n <= share / 2 || held.size === Math.floor(spec.maxInFlight / 2)) poke();
  };

  // Writes and lease renewals run one after the other, one batch or one renewal a turn: a renewal that
  // committed after an outcome's write would move a recorded retry's due time, and a busy sender's
  // writes, back to back, must not keep the renewals waiting.
  let chain: Promise<void> = Promise.resolve();
  const serial = (fn: () => Promise<void>) => {
    chain = chain.then(fn, fn);
    return chain;
  };
  // Group commit: one write queued at a time, taking whatever finished while the one before was in flight.
  let flushQueued = false;
  const flush = () => {
    if (flushQueued) return chain;
    flushQueued = true;
    return serial(async () => {
      // Outcomes finishing during the wait join this write: the flag stays set until it ends.
      if (spec.gatherMs && !stopping) await new Promise((r) => setTimeout(r, spec.gatherMs));
      flushQueued = false;
      if (!pending.length) return;
      const batch = pending;
      pending = [];
      let unwritten: O[];
      try {
        unwritten = await spec.record(batch);
      } catch (err) {
        log.error({ err }, `recording ${spec.name} failed`);
        unwritten = batch;
      }
      const left = new Set(unwritten.map(spec.idOf));
      for (const o of batch) {
        const w = held.get(spec.idOf(o));
        if (w && !left.has(spec.idOf(o))) release(w);
      }
      if (unwritten.length) {
        log.warn({ outcomes: unwritten.length }, `${spec.name} outcomes not written (database away); retrying`);
        pending = [...unwritten, ...pending];
        await new Promise((r) => setTimeout(r, 1000));
        if (stopping) return;
      }
      if (pending.length) void flush();
    });
  };
  let renewQueued = false;
  const renewTimer = setInterval(
    () => {
      if (renewQueued) return;
      renewQueued = true;
      void serial(async () => {
        renewQueued = false;
        // Everything held, outcomes not yet written included: a database away for longer than the lease
        // must not make their work due for another worker while this one still means to record it.
        if (!held.size) return;
        await spec
          .renew([...held.values()])
          .catch((err: unknown) => log.error({ err }, `renewing ${spec.name} leases failed`));
      });
    },
    Math.max(50, (spec.leaseSeconds * 1000) / 4),
  );

  const run = async (w: W) => {
    let outcome: O | null = null;
    try {
      outcome = await spec.send(w);
    } catch (err) {
      log.error({ err, id: w.id }, `sending ${spec.name} failed unexpectedly; its lease lets it come due again`);
    } finally {
      inFlight--;
    }
    if (outcome === null) return release(w);
    pending.push(outcome);
    void flush();
  };

  const loop = async () => {
    while (!stopping) {
      woken = false;
      const room = spec.maxInFlight - held.size;
      if (room <= 0) {
        await sleep(spec.pollMs);
        continue;
      }
      try {
        const claimed = await spec.claim({ held: busy, limit: room });
        for (const w of claimed) {
          held.set(w.id, w);
          inFlight++;
          shares.set(w.group, w.share);
          busy.set(w.group, { projectId: w.projectId, n: (busy.get(w.group)?.n ?? 0) + 1 });
          void run(w);
        }
        // Wait for a wake-up (slots freed, a NOTIFY) before claiming again, also after a claim that found
        // work: claiming again at once fetched only the one or two slots freed meanwhile.
        await sleep(spec.pollMs);
      } catch (err) {
        log.error({ err }, `claiming ${spec.name} failed; retrying`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
  const running = loop();

  return {
    /** Stops claiming, lets the work in flight finish, writes its outcomes. */
    async stop() {
      stopping = true;
      wake();
      await running;
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
      clearInterval(renewTimer);
      await flush();
      for (let last = chain; ; last = chain) {
        await last;
        if (last === chain) break;
      }
      await listening.unlisten().catch(() => {});
    },
  };
}
