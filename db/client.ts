import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";

export type Db = PostgresJsDatabase<typeof schema>;
/** An open transaction (what `db.transaction` hands its callback). */
export type Transaction = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** The database or an open transaction: verbs accept either, so an outer transaction can be reused. */
export type DbOrTx = Transaction | Db;

let cached: { sql: postgres.Sql; db: Db; listen?: postgres.Sql; queue?: postgres.Sql } | undefined;

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

/**
 * Where this process LISTENs: PostgreSQL itself (DATABASE_DIRECT_URL) when that is set, because the pool
 * then goes through a transaction-mode pooler, which takes LISTEN without error but delivers nothing
 * (docs/scaling.md); otherwise the pool's own client (postgres.js gives listeners a connection of their
 * own). Closed with the pool.
 */
export function getListenSql(): postgres.Sql {
  const d = getDatabase();
  const direct = process.env.DATABASE_DIRECT_URL;
  if (!direct) return d.sql;
  return (d.listen ??= postgres(direct, {
    max: 1,
    onnotice: () => {},
    connection: { application_name: applicationName() },
  }));
}

/**
 * pg-boss's pool (lib/queue/pool-adapter.ts): the same DATABASE_URL (multi-host included), connect timeout
 * and reconnect policy as the main pool, but a client of its own, because drizzle replaces its client's
 * date and JSON serializers with pass-throughs (it serializes those itself) and pg-boss binds Dates and
 * objects. Closed with the main pool.
 */
export function getQueueSql(max: number): postgres.Sql {
  const d = getDatabase();
  return (d.queue ??= postgres(databaseUrl(), poolOptions(max)));
}

function poolOptions(max: number): postgres.Options<Record<string, postgres.PostgresType>> {
  return {
    max,
    connect_timeout: Number(process.env.DATABASE_CONNECT_TIMEOUT ?? 5),
    idle_timeout: 30,
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
    // OLTP statements only: JIT compilation costs more than it saves and misfires on overestimated plans.
    connection: { jit: "off", application_name: applicationName() },
  };
}

function getDatabase() {
  if (!cached) {
    const sql = postgres(databaseUrl(), poolOptions(poolSize()));
    cached = { sql, db: drizzle(preparedStatements() ? preparing(sql) : sql, { schema, casing: "snake_case" }) };
  }
  return cached;
}

/**
 * drizzle sends every query as `sql.unsafe(text, params, { prepare: false })` unless the query is given a
 * name, and postgres.js sends such an unnamed statement only after a Describe round trip of its own (to
 * learn the parameter types): every query with parameters cost two round trips. A prepared statement goes
 * in one (Parse, Bind and Execute together the first time, Bind and Execute after), and PostgreSQL skips
 * parsing it again. This wraps the client, and the clients of its transactions and savepoints, so that
 * drizzle's queries are prepared (all but large ones, see below). The statement cache is per connection, and connections are recycled
 * (postgres.js max_lifetime), so it stays bounded. DATABASE_PREPARE=false turns it off, for a
 * transaction-mode pooler that cannot keep prepared statements across transactions.
 */
const PREPARE_MAX_TEXT = 16_384;
const PREPARE_MAX_PARAMS = 256;

export function preparing<T extends postgres.Sql | postgres.TransactionSql>(sql: T): T {
  type Unsafe = (query: string, params?: unknown[], options?: Record<string, unknown>) => unknown;
  type WithClient = (...args: unknown[]) => unknown;
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop === "unsafe") {
        const unsafe = Reflect.get(target, prop, receiver) as Unsafe;
        // Large statements (multi-row VALUES of a batch insert) stay unnamed: the extra round trip is
        // small beside their execution, and caching one per distinct row count would hold server memory.
        return (query: string, params?: unknown[], options?: Record<string, unknown>) =>
          unsafe(query, params, {
            ...options,
            prepare:
              options?.prepare === true ||
              (query.length <= PREPARE_MAX_TEXT && (params?.length ?? 0) <= PREPARE_MAX_PARAMS),
          });
      }
      if (prop === "begin" || prop === "savepoint") {
        const open = Reflect.get(target, prop, receiver) as WithClient;
        return (...args: unknown[]) => {
          const fn = args.pop() as (tx: postgres.TransactionSql) => unknown;
          return open(...args, (tx: postgres.TransactionSql) => fn(preparing(tx)));
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

/**
 * Seconds before a pool connection that closed with an error connects again. postgres.js's default,
 * 3^n/100 s with n counting every errored close of the pool, reaches its 20 s cap after a few seconds of a
 * database outage with requests arriving: once the database was back, queued queries still waited up to
 * 20 s for the next attempt (test/scale/database-restart.test.ts saw 503s answered 10-16 s after the
 * return). Capped at one second, jittered.
 */
export function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2);
}

function preparedStatements(): boolean {
  return process.env.DATABASE_PREPARE !== "false";
}

/** Names this process's connections (`relay-<RELAY_PROCESS>-<pid>`), so pool use can be read from pg_stat_activity. */
export function applicationName(): string {
  return `relay-${process.env.RELAY_PROCESS ?? "app"}-${process.pid}`;
}

/**
 * Connections in this process's pool: DATABASE_POOL_SIZE, else 4 in a web process and 10 in the worker.
 *
 * A web process is one JavaScript thread, and a handful of connections keep the database as busy as that
 * thread can: when every connection has a query in flight, postgres.js pipelines the next ones onto them
 * (round-robin), and a backend finds them waiting in its socket instead of sleeping and being woken for
 * each; more connections cost PostgreSQL more CPU per request and answered fewer requests
 * (docs/decisions/0007-few-connections-per-web-process.md; docs/scaling.md). The cost: a query queued
 * behind a slow one on a busy connection waits for it, and a 5th concurrent transaction waits for a
 * connection. The worker runs several transactions at once (pipeline jobs, schedule claimers, imports),
 * so it keeps 10.
 */
export const DEFAULT_POOL_SIZE = { web: 4, worker: 10 } as const;

export function poolSize(env: Record<string, string | undefined> = process.env): number {
  const set = env.DATABASE_POOL_SIZE?.trim();
  if (!set) return env.RELAY_PROCESS?.startsWith("worker") ? DEFAULT_POOL_SIZE.worker : DEFAULT_POOL_SIZE.web;
  const n = Number(set);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new Error(`DATABASE_POOL_SIZE must be a whole number from 1 to 1000, not ${JSON.stringify(set)}`);
  return n;
}

export async function closeDatabase() {
  if (cached) {
    const { sql, listen, queue } = cached;
    cached = undefined;
    await Promise.all([sql.end({ timeout: 5 }), listen?.end({ timeout: 1 }), queue?.end({ timeout: 5 })]);
  }
}
