import type { Db } from "@/db/client";
import { runNextImport } from "@/lib/imports/run-import";
import { importRunOptions } from "@/lib/imports/run-options";
import { sweepStaleUploads } from "@/lib/imports/sweep-stale-uploads";
import { log } from "@/lib/observability/logger";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The import loop: claims unfinished imports (queued, or abandoned by a crashed worker once their lease
 * ran out) and applies them. Its own loop over the `imports` table rather than a pg-boss job: an import
 * runs for minutes, and a job's expiry would either cut it off or, after a crash, wait out the expiry
 * before a retry; the row's lease is renewed by every batch and lapses within IMPORT_LEASE_SECONDS.
 */
export function startImportLoop(
  db: Db,
  pollMs = Number(process.env.IMPORT_POLL_MS ?? 1000),
  // How often uploads cut off mid-stream are looked for (a cheap read of the few imports still uploading).
  sweepMs = Number(process.env.IMPORT_SWEEP_MS ?? 60_000),
) {
  let stopping = false;
  const ctx = { db };
  const opts = { ...importRunOptions(), stopping: () => stopping };
  let sweptAt = 0;
  const running = (async () => {
    while (!stopping) {
      try {
        if (Date.now() - sweptAt > sweepMs) {
          sweptAt = Date.now();
          const swept = await sweepStaleUploads(ctx);
          if (swept) log.warn({ swept }, "uploads cut off mid-stream were marked failed");
        }
        if (!(await runNextImport(ctx, opts))) await sleep(pollMs);
      } catch (err) {
        log.error({ err }, "import loop error; retrying");
        await sleep(Math.max(pollMs, 1000));
      }
    }
  })();
  return {
    /** Lets the batch in flight commit, hands the import back at its checkpoint, then stops. */
    async stop() {
      stopping = true;
      await running;
    },
  };
}
