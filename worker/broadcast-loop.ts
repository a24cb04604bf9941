import type { Db } from "@/db/client";
import { startChunk, tickBroadcasts } from "@/lib/broadcasts/tick-broadcasts";
import { dueLoopOptions, startDueLoop } from "@/lib/outbound/due-loop";

/**
 * The broadcasts' due loop (lib/outbound/due-loop.ts): starts due broadcasts a chunk at a time and closes
 * finished ones, beside the message sender rather than inside its loop, so a large list's start never
 * holds up sending. BROADCAST_POLL_MS (1000).
 */
export function startBroadcastLoop(db: Db) {
  const opts = dueLoopOptions("BROADCAST", { pollMs: 1000, batchSize: 1, concurrency: 1 });
  const chunk = startChunk();
  return startDueLoop("broadcast", { ...opts, batchSize: 1 }, () => tickBroadcasts({ db }, { chunk }));
}
