import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { isTransaction } from "@/lib/db/transaction";
import { INTAKE_CHANNEL } from "@/lib/queue/jobs";
import { processSingleton } from "@/lib/process/singleton";

type State = { inFlight: boolean; again: boolean };
const state: State = processSingleton("wakeIntake", () => ({ inFlight: false, again: false }));

/**
 * The least time between two wake-ups from one process while writes keep coming (INTAKE_WAKE_SPACING_MS,
 * default 20 ms): the first write after a quiet spell wakes the drain at once; under load an event waits
 * at most this much longer to be drained, and the drain is woken at most 50 times a second per process.
 */
const WAKE_SPACING_MS = Math.max(0, Number(process.env.INTAKE_WAKE_SPACING_MS ?? 20) || 0);

/**
 * Wakes the intake drain (NOTIFY on INTAKE_CHANNEL) once rows written through `ctx.db` are visible.
 *
 * Inside a caller's transaction the NOTIFY joins it, so it is delivered at that commit. Otherwise the
 * rows are already committed and the NOTIFY goes in a statement of its own, coalesced: at most one in
 * flight per process, and one more after it (WAKE_SPACING_MS after the last) if any write came
 * meanwhile. A NOTIFY in the writing transaction makes commits queue one by one (PostgreSQL holds a
 * database-wide lock on the notification queue from before the commit record is flushed until the
 * commit is done): with many single upserts or small event posts at once, that halved their throughput.
 * A lost wake-up costs at most the drain's poll (INTAKE_POLL_MS, 250 ms), never an event.
 */
export async function wakeIntakeAfter(ctx: AppContext): Promise<void> {
  const { db } = ctx;
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
        const sent = Date.now();
        await db.execute(sql`select pg_notify(${INTAKE_CHANNEL}, '')`).catch(() => {});
        // Writes keep coming: the next NOTIFY waits out the spacing. Sent back to back, a steady stream of
        // writes sent one NOTIFY per round trip, each a commit, a signal and a wake-up of the drain, which
        // drains everything present whenever it wakes anyway.
        const wait = sent + WAKE_SPACING_MS - Date.now();
        if (state.again && wait > 0) await new Promise((r) => setTimeout(r, wait));
      } while (state.again);
    } finally {
      state.inFlight = false;
    }
  })();
}

/** Transactions whose writer wakes the drain itself after the commit (deferWakeToCommit). */
const deferred = new WeakSet<DbOrTx>();

/**
 * Marks the transaction `ctx.db`, which its caller owns and will wake the drain after (wakeIntakeAfter
 * on the pool, once it committed): statements recording system events in it then leave the NOTIFY out,
 * so concurrent writers do not commit one at a time behind the notification queue's lock.
 */
export function deferWakeToCommit(ctx: AppContext): void {
  deferred.add(ctx.db);
}

/** Whether a statement recording events in `ctx.db` should leave its NOTIFY to the caller (deferWakeToCommit). */
export function wakesAfterCommit(ctx: AppContext): boolean {
  return deferred.has(ctx.db);
}
