import type { DbOrTx, Transaction } from "@/db/client";
import { DEADLOCK, errorCode, SERIALIZATION_FAILURE, UNIQUE_VIOLATION } from "./errors";
import { isTransaction, RetryTransaction, withTransaction } from "./transaction";

/**
 * Runs `fn` in a transaction and starts it over when a concurrent writer won a race on an identifier
 * (our RetryTransaction, a unique violation, or a deadlock). Inside an outer transaction it cannot
 * retry alone, so the error propagates to the outermost caller's loop.
 */
export async function inRetryingTransaction<T>(
  db: DbOrTx,
  fn: (tx: Transaction) => Promise<T>,
  attempts = 8,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(db, fn);
    } catch (err) {
      if (!isRetryable(err) || attempt >= attempts || isTransaction(db)) throw err;
      await retryPause(attempt);
    }
  }
}

/** Whether a failed transaction lost a race and may simply run again. */
export function isRetryable(err: unknown): boolean {
  const code = errorCode(err);
  return (
    err instanceof RetryTransaction || code === UNIQUE_VIOLATION || code === SERIALIZATION_FAILURE || code === DEADLOCK
  );
}

/** A short random pause before attempt `attempt + 1`, so racing writers do not collide again in step. */
export function retryPause(attempt: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
}
