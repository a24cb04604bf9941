import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";

/** Rows drained between two vacuums of the intake, and the least time between them. */
export const VACUUM_INTAKE_ROWS = 5_000;
export const VACUUM_INTAKE_MS = 1_000;

/**
 * The intake is a queue: every row is deleted once drained, and its claim reads the table from its first
 * page (drain-intake.ts). Until a vacuum frees them, the dead rows keep their pages, so every claim reads
 * all the rows drained since the last one: with autovacuum's pace (a minute's nap, or autovacuum off) a
 * claim at 20,000 events/s read pages of a million dead rows, and the drain's cost grew with what it had
 * already done. Vacuumed every few thousand rows, the freed pages take the next inserts and the table
 * stays the size of its backlog. This counts what the caller drained and vacuums when due, without
 * waiting (SKIP_LOCKED: another worker's vacuum of it already does the job; a role that may not vacuum
 * the table gets a warning, not an error), and without giving back the table's empty tail (TRUNCATE false:
 * that takes an exclusive lock, which the drain's transactions keep it waiting for, and the pages are
 * about to be filled again).
 */
export function intakeVacuum(ctx: AppContext<Db>, opts: { rows?: number; ms?: number } = {}) {
  const { rows = VACUUM_INTAKE_ROWS, ms = VACUUM_INTAKE_MS } = opts;
  let drained = 0;
  let last = 0;
  let running: Promise<void> | null = null;
  return {
    /** Counts `n` rows drained; vacuums once enough were, one vacuum at a time per process. */
    async drained(n: number): Promise<void> {
      drained += n;
      if (running || drained < rows || Date.now() - last < ms) return;
      drained = 0;
      last = Date.now();
      running = ctx.db
        .execute(sql`vacuum (skip_locked, truncate false) event_intake`)
        .then(() => {})
        .finally(() => {
          running = null;
        });
      await running;
    },
  };
}
