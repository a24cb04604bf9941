import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { Enqueue } from "@/lib/pipeline/enqueue";
import { fireDueFirings } from "@/lib/schedules/fire-due";
import { queryRows } from "@/lib/db/sql";

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
 * and sleeps `pollMs` otherwise. It also hands offsets added to busy definitions to the
 * `schedules.backfill-offset` queue, marking them queued in the same transaction as the send.
 */
export function startScheduleLoop(db: Db, enqueue: Enqueue, opts: ScheduleLoopOptions) {
  let stopping = false;
  let lastSweep = 0;

  async function sweepBackfills() {
    if (Date.now() - lastSweep < 1000) return;
    lastSweep = Date.now();
    await db.transaction(async (tx) => {
      const rows = (await queryRows<{ project_id: string; id: string }>(tx, sql`
        update schedule_offsets set backfill = 'queued' where (project_id, id) in (
          select project_id, id from schedule_offsets where backfill = 'pending' limit 100 for update skip locked)
        returning project_id, id`));
      await enqueue(tx, "schedules.backfill-offset", rows.map((r) => ({ projectId: r.project_id, offsetId: r.id })));
    });
  }

  async function claimer(n: number) {
    while (!stopping) {
      try {
        if (n === 0) await sweepBackfills();
        const { claimed } = await fireDueFirings(db, { batchSize: opts.batchSize });
        if (claimed < opts.batchSize) await sleep(opts.pollMs);
      } catch (err) {
        console.error("[worker] schedule loop error", err);
        await sleep(Math.max(opts.pollMs, 1000));
      }
    }
  }

  const running = Array.from({ length: Math.max(1, opts.concurrency) }, (_, n) => claimer(n));
  return {
    /** Lets the batch in flight commit, then stops. */
    async stop() {
      stopping = true;
      await Promise.all(running);
    },
  };
}
