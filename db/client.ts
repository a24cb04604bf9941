import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";

export type Db = PostgresJsDatabase<typeof schema>;
/** An open transaction (what `db.transaction` hands its callback). */
export type Transaction = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** The database or an open transaction: verbs accept either, so an outer transaction can be reused. */
export type DbOrTx = Transaction | Db;
/** @deprecated Renamed `DbOrTx` (it was never only a transaction); the alias goes in the verb-signature sweep. */
export type Tx = DbOrTx;

let cached: { sql: postgres.Sql; db: Db } | undefined;

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm run dev starts an embedded PostgreSQL and sets it for you)");
  return url;
}

/** Process-wide connection pool. Short connect timeout so a dead database becomes a fast 503, not a hung request. */
export function getSql(): postgres.Sql {
  return getDatabase().sql;
}

export function getDb(): Db {
  return getDatabase().db;
}

function getDatabase() {
  if (!cached) {
    const sql = postgres(databaseUrl(), {
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      connect_timeout: Number(process.env.DATABASE_CONNECT_TIMEOUT ?? 5),
      idle_timeout: 30,
      onnotice: () => {},
      // OLTP statements only: JIT compilation costs more than it saves and misfires on overestimated plans.
      connection: { jit: "off" },
    });
    cached = { sql, db: drizzle(sql, { schema, casing: "snake_case" }) };
  }
  return cached;
}

export async function closeDatabase() {
  if (cached) {
    const { sql } = cached;
    cached = undefined;
    await sql.end({ timeout: 5 });
  }
}
