import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, DbOrTx, Transaction } from "@/db/client";

/** Thrown inside a transaction when a concurrent writer won a race; `inRetryingTransaction` starts over. */
export class RetryTransaction extends Error {}

export function isTransaction(db: DbOrTx): db is Transaction {
  return db instanceof PgTransaction;
}

/** Runs `fn` in a new transaction, or inside the caller's when `db` already is one. */
export async function withTransaction<T>(db: DbOrTx, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  if (isTransaction(db)) return fn(db);
  return (db as Db).transaction((tx) => fn(tx));
}
