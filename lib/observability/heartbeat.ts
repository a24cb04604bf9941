import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { workerHeartbeats } from "@/db/schema";
import type { AppContext } from "@/lib/access/context";
import { log } from "./logger";

const EVERY_MS = Number(process.env.WORKER_HEARTBEAT_MS ?? 5000);

/**
 * Records that this worker is alive every few seconds (readiness wants a beat within 30 s). A failed beat
 * (database down) is logged and tried again at the next interval; it never stops the worker.
 */
export function startHeartbeat({ db }: AppContext<Db>) {
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const beat = async () => {
    try {
      await db
        .insert(workerHeartbeats)
        .values({ id, hostname: hostname(), pid: process.pid })
        .onConflictDoUpdate({ target: workerHeartbeats.id, set: { seenAt: sql`now()` } });
      await db.delete(workerHeartbeats).where(lt(workerHeartbeats.seenAt, sql`now() - interval '1 day'`));
    } catch (err) {
      log.warn({ err: (err as Error).message }, "worker heartbeat failed; retrying");
    }
  };
  const first = beat();
  const timer = setInterval(beat, EVERY_MS);
  return {
    id,
    ready: first,
    /** Stops beating and removes this worker's row, so readiness does not count a worker that left. */
    async stop() {
      clearInterval(timer);
      await db
        .delete(workerHeartbeats)
        .where(sql`${workerHeartbeats.id} = ${id}`)
        .catch(() => {});
    },
  };
}
