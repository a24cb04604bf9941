import type { Db } from "@/db/client";
import { advanceDueEntries } from "@/lib/journeys/advance-due";
import { dueLoopOptions, startDueLoop } from "@/lib/outbound/due-loop";

/**
 * JOURNEY_POLL_MS (200), JOURNEY_BATCH (entries per transaction, 1000), JOURNEY_CONCURRENCY (1). One
 * claimer each: with two per process, two workers on 2 cores spent twice the database time per entry (a
 * claim passes over the rows the others hold, and a batch's writes contend), and moved fewer entries per
 * second (docs/decisions/0025). Add worker processes for more.
 */
export const journeyLoopOptions = (env = process.env) =>
  dueLoopOptions("JOURNEY", { pollMs: 200, batchSize: 1000, concurrency: 1 }, env);

/** The journeys' due loop (lib/outbound/due-loop.ts): delays, wait timeouts, new and released entries. */
export function startJourneyLoop(db: Db, opts = journeyLoopOptions()) {
  return startDueLoop(
    "journey",
    opts,
    async () => (await advanceDueEntries({ db }, { batchSize: opts.batchSize })).claimed,
  );
}
