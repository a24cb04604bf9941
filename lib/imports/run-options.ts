/** How the import worker runs: its lease, batch sizes and parallelism (IMPORT_* environment variables). */
export interface ImportRunOptions {
  /** How long a claim lasts without a committed batch renewing it (a crashed worker's import is taken over after this). */
  leaseSeconds: number;
  /**
   * Rows per transaction. Larger than the batch endpoints' 1,000: every batch pays a fixed cost (the
   * lease check, the checkpoint update, a commit, and a handful of set-based statements), so fewer,
   * larger batches apply more rows per second; 10,000 keeps the totals check's id list well under
   * postgres's 65,535 bind parameters and a batch's memory small.
   */
  batchSize: number;
  /**
   * Bytes of the file per batch (IMPORT_BATCH_BYTES, default 2 MiB): a batch ends at whichever of
   * `batchSize` rows or this many bytes comes first, so the rows parsed and in flight at once stay small
   * whatever the rows hold (5,000 rows of 100 KiB would be half a gigabyte of objects).
   */
  batchBytes: number;
  /**
   * Batches in flight at once (IMPORT_PARALLEL, 1 to 4, default 2). A batch's rows are applied while the
   * one before it is still committing, so the database works on two cores; checkpoints still commit in
   * file order (see commitBatch).
   */
  parallel: number;
  /**
   * How long a batch done applying waits for the one before it before stepping back anyway
   * (IMPORT_ORDER_WAIT_MS, default 60,000): a backstop for a wait the order check cannot see (through a
   * transaction outside the import). The check itself finds waits between the import's own batches.
   */
  orderWaitMs: number;
  /** Asked between batches: true makes the run hand the import back (lease released) and return. */
  stopping?: () => boolean;
}

export const DEFAULT_IMPORT_BATCH = 5000;
export const MAX_IMPORT_BATCH = 10_000;
export const DEFAULT_IMPORT_BATCH_BYTES = 2 * 1024 * 1024;
export const DEFAULT_IMPORT_PARALLEL = 2;
/** Claims of an import that lost their worker (its lease ran out) before the import is failed instead of taken again. */
export const MAX_IMPORT_TAKEOVERS = 2;
export const MAX_IMPORT_PARALLEL = 4;

export function importRunOptions(env = process.env): ImportRunOptions {
  return {
    leaseSeconds: Number(env.IMPORT_LEASE_SECONDS ?? 30),
    batchSize: Math.max(1, Math.min(MAX_IMPORT_BATCH, Number(env.IMPORT_BATCH) || DEFAULT_IMPORT_BATCH)),
    batchBytes: Math.max(
      64 * 1024,
      Math.min(64 * 1024 * 1024, Number(env.IMPORT_BATCH_BYTES) || DEFAULT_IMPORT_BATCH_BYTES),
    ),
    orderWaitMs: Math.max(1000, Number(env.IMPORT_ORDER_WAIT_MS) || 60_000),
    parallel: Math.max(
      1,
      Math.min(MAX_IMPORT_PARALLEL, Math.floor(Number(env.IMPORT_PARALLEL)) || DEFAULT_IMPORT_PARALLEL),
    ),
  };
}
