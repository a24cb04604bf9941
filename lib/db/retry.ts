import type { DbOrTx, Transaction } from "@/db/client";
import { DEADLOCK, errorCode, SERIALIZATION_FAILURE, UNIQUE_VIOLATION } from "./errors";
import { isTransaction, RetryTransaction, withTransaction } from "./transaction";

/**
 * Runs `fn` in a transaction and starts it over when a concurrent writer won a race on an identifier
 * (our RetryTransaction, a unique violation, or a deadlock). Inside an outer transaction it cannot
 * retry alone, so the error propagates to the outermost caller's loop.
 */
export async function inRetryingTransaction<T>(db: DbOrTx, fn: (tx: Transaction) => Promise<T>, attempts = 8): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(db, fn);
    } catch (err) {
      const code = errorCode(err);
      const retryable = err instanceof RetryTransaction || code === UNIQUE_VIOLATION || code === SERIALIZATION_FAILURE || code === DEADLOCK;
      if (!retryable || attempt >= attempts || isTransaction(db)) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
    }
  }
}
