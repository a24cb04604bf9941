import type { Db } from "@/db/client";
import { fireDueFirings } from "@/lib/schedules/fire-due";
import { log } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";

export interface ScheduleLoopOptions {
  /** Sleep between polls when nothing was due (SCHEDULE_POLL_MS, default 200 ms). */
  pollMs: number;
  /** Firings claimed per transaction (SCHEDULE_BATCH, default 1000). */
  batchSize: number;
  /** Concurrent claimers in this process (SCHEDULE_CONCURRENCY, default 2); SKIP LOCKED keeps them apart. */
  concurrency: number;
}

export function scheduleLoopOptions(env = process.env): ScheduleLoopOptions {
  return {
    pollMs: Number(env.SCHEDULE_POLL_MS ?? 200),
    batchSize: Number(env.SCHEDULE_BATCH ?? 1000),
    concurrency: Number(env.SCHEDULE_CONCURRENCY ?? 2),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The schedule firing loop: its own loop in the worker, not one pg-boss job per firing (millions of
 * waiting jobs slow pg-boss down). Each claimer fires batches back to back while they come back full
 * and sleeps `pollMs` otherwise.
 */
export function startScheduleLoop(db: Db, opts: ScheduleLoopOptions) {
  let stopping = false;

  async function claimer() {
    while (!stopping) {
      try {
        const { claimed, fired, skipped } = await fireDueFirings({ db }, { batchSize: opts.batchSize });
        if (fired) metrics.firings.inc({ outcome: "fired" }, fired);
        if (skipped) metrics.firings.inc({ outcome: "skipped" }, skipped);
        if (claimed < opts.batchSize) await sleep(opts.pollMs);
      } catch (err) {
        log.error({ err }, "schedule loop error; retrying");
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
