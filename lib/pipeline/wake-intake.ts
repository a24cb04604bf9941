import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { isTransaction } from "@/lib/db/transaction";
import { INTAKE_CHANNEL } from "@/lib/queue/jobs";

type State = { inFlight: boolean; again: boolean };
// On globalThis: Next bundles route handlers into separate chunks, each of which would get its own copy.
const KEY = Symbol.for("relay.wakeIntake");
const g = globalThis as unknown as Record<symbol, State | undefined>;
const state: State = (g[KEY] ??= { inFlight: false, again: false });

/**
 * Wakes the intake drain (NOTIFY on INTAKE_CHANNEL) once rows written through `db` are visible.
 *
 * Inside a caller's transaction the NOTIFY joins it, so it is delivered at that commit. Otherwise the
 * rows are already committed and the NOTIFY goes in a statement of its own, coalesced: at most one in
 * flight per process, and one more after it if any write came meanwhile. A NOTIFY in the writing
 * transaction makes commits queue one by one (PostgreSQL holds a database-wide lock on the notification
 * queue from before the commit record is flushed until the commit is done): with many single upserts or
 * small event posts at once, that halved their throughput. A lost wake-up costs at most the drain's poll
 * (INTAKE_POLL_MS, 250 ms), never an event.
 */
export async function wakeIntakeAfter(db: DbOrTx): Promise<void> {
  if (isTransaction(db)) {
    await db.execute(sql`select pg_notify(${INTAKE_CHANNEL}, '')`);
    return;
  }
  if (state.inFlight) {
    state.again = true;
    return;
  }
  state.inFlight = true;
  void (async () => {
    try {
      do {
        state.again = false;
        await db.execute(sql`select pg_notify(${INTAKE_CHANNEL}, '')`).catch(() => {});
      } while (state.again);
    } finally {
      state.inFlight = false;
    }
  })();
}
