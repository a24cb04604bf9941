import type { Db } from "@/db/client";
import { ensureEventPartitions } from "@/lib/events/partitions";
import { purgeExpiredEvents } from "@/lib/events/retention";
import { purgeIdempotencyKeys } from "@/lib/messages/purge-idempotency-keys";
import { log } from "@/lib/observability/logger";

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration like `1h`, `5s`, `30m`, `250ms` or `1d` in milliseconds; throws on anything else. */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text);
  if (!m || Number(m[1]) <= 0) throw new Error(`Not a duration: "${text}" (expected e.g. 1h, 30m, 5s)`);
  return Number(m[1]) * UNITS[m[2]!]!;
}

export function retentionIntervalMs(): number {
  return parseDuration(process.env.RETENTION_INTERVAL?.trim() || "1h");
}

/**
 * The events table's upkeep: at start and then every RETENTION_INTERVAL (default 1h), create the
 * partitions ahead (and on demand for rows that reached the default partition), then purge expired
 * events, then the send API's idempotency keys past their 24 hours. Its own timer rather than a pg-boss cron job: the interval is an operator's setting, down to
 * seconds, and a run that takes long simply delays the next one.
 */
export function startRetentionLoop(db: Db, intervalMs = retentionIntervalMs()) {
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let wake = () => {};
  const running = (async () => {
    while (!stopping) {
      try {
        await ensureEventPartitions({ db });
        if (!stopping) await purgeExpiredEvents({ db }, { stopping: () => stopping });
        if (!stopping) await purgeIdempotencyKeys({ db }, { stopping: () => stopping });
      } catch (err) {
        log.error({ err }, "events upkeep failed; retrying next interval");
      }
      // A stop that came during the upkeep above found no timer to clear: it must not wait out the interval.
      if (stopping) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, intervalMs);
      });
    }
  })();
  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      wake();
      await running;
    },
  };
}
