import type { Db } from "@/db/client";
import { advanceDueEntries } from "@/lib/journeys/advance-due";
import { log } from "@/lib/observability/logger";

export interface JourneyLoopOptions {
  /** Sleep between polls when nothing was due (JOURNEY_POLL_MS, default 200 ms). */
  pollMs: number;
  /** Entries claimed per transaction (JOURNEY_BATCH, default 1000). */
  batchSize: number;
  /**
   * Concurrent claimers in this process (JOURNEY_CONCURRENCY, default 1); SKIP LOCKED keeps them apart.
   * One each: with two per process, two workers on 2 cores spent twice the database time per entry (a
   * claim passes over the rows the others hold, and a batch's writes contend), and moved fewer entries
   * per second (docs/decisions/0025). Add worker processes for more.
   */
  concurrency: number;
}

export function journeyLoopOptions(env = process.env): JourneyLoopOptions {
  return {
    pollMs: Number(env.JOURNEY_POLL_MS ?? 200),
    batchSize: Number(env.JOURNEY_BATCH ?? 1000),
    concurrency: Number(env.JOURNEY_CONCURRENCY ?? 1),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The journeys' due loop, shaped as the schedule firing loop (schedule-loop.ts): each claimer moves
 * batches of due entries on back to back while they come back full, and sleeps `pollMs` otherwise.
 */
export function startJourneyLoop(db: Db, opts: JourneyLoopOptions) {
  let stopping = false;

  async function claimer() {
    while (!stopping) {
      try {
        const { claimed } = await advanceDueEntries({ db }, { batchSize: opts.batchSize });
        if (claimed < opts.batchSize) await sleep(opts.pollMs);
      } catch (err) {
        log.error({ err }, "journey loop error; retrying");
        await sleep(Math.max(opts.pollMs, 1000));
      }
    }
  }

  const running = Array.from({ length: Math.max(1, opts.concurrency) }, () => claimer());
  return {
    /** Lets the batch in flight commit, then stops. */
    async stop() {
      stopping = true;
      await Promise.all(running);
    },
  };
}
