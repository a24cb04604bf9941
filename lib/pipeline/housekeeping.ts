import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { DEDUPE_WINDOW } from "@/lib/events/accept-events";
import { refreshWindowedLists } from "@/lib/lists/refresh-windowed-lists";
import { pruneRequestLog } from "@/lib/request-log/prune-request-log";
import { pruneDeliveries } from "@/lib/destinations/prune-deliveries";
import { foldRollups } from "@/lib/reports/fold-rollups";

/** Fold batches per tick: a backlog (a database from before folding) is worked off over several ticks. */
const FOLD_BATCHES_PER_TICK = 50;

/**
 * Periodic housekeeping (the `system.tick` job, every minute): forget client event ids older than the
 * de-duplication window, forget done-markers of batches whose jobs can no longer be retried, and let
 * members of time-windowed lists leave when their events age out; keep the request log, the delivery log and overview counters bounded;
 * fold the report rollups' shards of closed hours and days into one row each.
 */
export async function runHousekeeping(ctx: AppContext<Db>): Promise<void> {
  await ctx.db.execute(sql`delete from event_client_ids where received_at < now() - ${DEDUPE_WINDOW}::interval`);
  await ctx.db.execute(sql`delete from pipeline_steps_done where done_at < now() - interval '14 days'`);
  await refreshWindowedLists(ctx);
  await pruneRequestLog(ctx);
  await pruneDeliveries(ctx);
  await foldRollups(ctx, { maxBatches: FOLD_BATCHES_PER_TICK });
}
