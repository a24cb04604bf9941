import type { Db } from "@/db/client";
import { dueLoopOptions, startDueLoop } from "@/lib/outbound/due-loop";
import { fireDueFirings } from "@/lib/schedules/fire-due";
import { metrics } from "@/lib/observability/metrics";

/** SCHEDULE_POLL_MS (200), SCHEDULE_BATCH (firings per transaction, 1000), SCHEDULE_CONCURRENCY (2). */
export const scheduleLoopOptions = (env = process.env) =>
  dueLoopOptions("SCHEDULE", { pollMs: 200, batchSize: 1000, concurrency: 2 }, env);

/**
 * The schedule firing loop (lib/outbound/due-loop.ts): its own loop in the worker, not one pg-boss job per
 * firing (millions of waiting jobs slow pg-boss down).
 */
export function startScheduleLoop(db: Db, opts = scheduleLoopOptions()) {
  return startDueLoop("schedule", opts, async () => {
    const { claimed, fired, skipped } = await fireDueFirings({ db }, { batchSize: opts.batchSize });
    if (fired) metrics.firings.inc({ outcome: "fired" }, fired);
    if (skipped) metrics.firings.inc({ outcome: "skipped" }, skipped);
    return claimed;
  });
}
