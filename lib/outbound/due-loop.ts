import { log } from "@/lib/observability/logger";

export interface DueLoopOptions {
  /** Sleep between polls when nothing was due. */
  pollMs: number;
  /** Rows claimed per round: a round that came back with this many runs the next one at once. */
  batchSize: number;
  /** Concurrent claimers in this process; SKIP LOCKED keeps them apart. */
  concurrency: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The one shape of the worker's due loops (journey entries, schedule firings, broadcasts to start): each
 * claimer runs `round` (claim a batch of due rows, act, commit) back to back while rounds come back full,
 * and sleeps `pollMs` otherwise; a failing round is logged and tried again after at least a second.
 * `round` answers how many rows it claimed.
 */
export function startDueLoop(name: string, opts: DueLoopOptions, round: () => Promise<number>) {
  let stopping = false;
  async function claimer() {
    while (!stopping) {
      try {
        if ((await round()) < opts.batchSize) await sleep(opts.pollMs);
      } catch (err) {
        log.error({ err }, `${name} loop error; retrying`);
        await sleep(Math.max(opts.pollMs, 1000));
      }
    }
  }
  const running = Array.from({ length: Math.max(1, opts.concurrency) }, () => claimer());
  return {
    /** Lets the round in flight commit, then stops. */
    async stop() {
      stopping = true;
      await Promise.all(running);
    },
  };
}

/** A due loop's options from the environment: `<PREFIX>_POLL_MS`, `<PREFIX>_BATCH`, `<PREFIX>_CONCURRENCY`. */
export function dueLoopOptions(prefix: string, defaults: DueLoopOptions, env = process.env): DueLoopOptions {
  return {
    pollMs: Number(env[`${prefix}_POLL_MS`] ?? defaults.pollMs),
    batchSize: Number(env[`${prefix}_BATCH`] ?? defaults.batchSize),
    concurrency: Number(env[`${prefix}_CONCURRENCY`] ?? defaults.concurrency),
  };
}
