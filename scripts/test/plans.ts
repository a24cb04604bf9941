import { sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import { closeDatabase, getDb, type Db, type Transaction } from "../../db/client";
import { createProjectWithOwner } from "../../lib/projects/create-project";
import { stopBoss } from "../../lib/queue/boss";
import { createTestDatabase } from "./database";

/**
 * For tests that a statement reads the rows it names whatever the planner believes (the
 * `*-plans.int.test.ts` files). A database of its own, so its statistics are the test's to make stale:
 * `tables` are analyzed while still empty, which is what a new installation, a table filling faster than
 * autovacuum analyzes it, or a project absent from the table's sample looks like to the planner. `db` is
 * one connection, so prepared statements and PL/pgSQL reach their generic plans after five calls; the
 * process's own pool (`getDb()`) seeds.
 */
export async function openPlansDatabase(name: string, tables: string[]) {
  const database = await createTestDatabase(name);
  await closeDatabase();
  process.env.DATABASE_URL = database.url;
  const projectId = (
    await createProjectWithOwner(
      { db: getDb() },
      { orgName: "plans", projectName: "plans", ownerEmail: `plans-${crypto.randomUUID()}@example.com` },
    )
  ).project.id;
  await getDb().execute(sql.raw(tables.map((t) => `analyze ${t}`).join("; ")));
  let recording: { query: string; params: unknown[] }[] | null = null;
  const client = postgres(database.url, {
    max: 1,
    onnotice: () => {},
    debug: (_connection, query, params) => recording?.push({ query, params }),
  });
  const db: Db = drizzle(client, { schema, casing: "snake_case" });
  // The driver reads the server's array types with the connection's first query: not a test's to measure.
  await db.execute(sql`select 1`);
  return {
    projectId,
    db,
    /**
     * Pages (shared buffers hit or read) the statements `body` ran on `db` touched, summed, with each
     * statement's own figure: for a verb that runs several statements, where pagesTouched measures one.
     * `body` runs as it is; then each of its reads runs again, with the same parameters, under
     * EXPLAIN (ANALYZE, BUFFERS) in a transaction that is rolled back. For read-only verbs.
     */
    async pagesRead(body: (db: Db) => Promise<unknown>) {
      const ran: { query: string; params: unknown[] }[] = [];
      recording = ran;
      try {
        await body(db);
      } finally {
        recording = null;
      }
      const statements: { query: string; pages: number }[] = [];
      await client
        .begin(async (tx) => {
          for (const { query, params } of ran) {
            if (!/^\s*(select|with)\b/i.test(query)) continue;
            const [row] = await tx.unsafe(`explain (analyze, buffers, format json) ${query}`, params as never[]);
            const plan = (row as unknown as { "QUERY PLAN": [{ Plan: Record<string, number> }] })["QUERY PLAN"][0].Plan;
            statements.push({ query, pages: plan["Shared Hit Blocks"]! + plan["Shared Read Blocks"]! });
          }
          throw new Rollback();
        })
        .catch((e) => {
          if (!(e instanceof Rollback)) throw e;
        });
      return { total: statements.reduce((n, s) => n + s.pages, 0), statements };
    },
    async close() {
      await stopBoss(2_000);
      await client.end();
      await closeDatabase();
      await database.drop();
    },
  };
}

/**
 * Rows of each of `tables` that `body` read, by index or by sequential scan, on `db`'s connection
 * (pg_stat_xact_user_tables counts the open transaction; a partitioned table, its partitions); what
 * `body` wrote is rolled back.
 */
export async function rowsRead<T extends string>(
  db: Db,
  tables: readonly T[],
  body: (tx: Transaction) => Promise<unknown>,
): Promise<Record<T, number>> {
  return rolledBack(db, async (tx) => {
    const count = async () => {
      const rows =
        // A partitioned table's rows are counted on its partitions: each is summed into its root's name.
        await tx.execute(sql`select t.relname, sum(coalesce(s.idx_tup_fetch, 0) + s.seq_tup_read)::bigint as n
        from pg_stat_xact_user_tables s
        cross join lateral (select coalesce(pg_partition_root(s.relid)::regclass::text, s.relname) as relname) t
        where t.relname in ${sql.raw(`(${tables.map((t) => `'${t}'`).join(", ")})`)} group by t.relname`);
      return Object.fromEntries(tables.map((t) => [t, Number(rows.find((r) => r.relname === t)?.n ?? 0)])) as Record<
        T,
        number
      >;
    };
    const before = await count();
    await body(tx);
    const after = await count();
    return Object.fromEntries(tables.map((t) => [t, after[t] - before[t]])) as Record<T, number>;
  });
}

/**
 * Pages (shared buffers hit or read) one statement touched on `db`'s connection, every statement it ran
 * inside included (a function's), from EXPLAIN (ANALYZE, BUFFERS); what it wrote is rolled back. Pages
 * see what rowsRead cannot: a scan that steps over index entries without fetching their rows.
 */
export async function pagesTouched(db: Db, statement: SQL): Promise<number> {
  return rolledBack(db, async (tx) => {
    const [row] = await tx.execute(sql`explain (analyze, buffers, format json) ${statement}`);
    const plan = (row as { "QUERY PLAN": [{ Plan: Record<string, number> }] })["QUERY PLAN"][0].Plan;
    return plan["Shared Hit Blocks"]! + plan["Shared Read Blocks"]!;
  });
}

/** What `body` answers, in a transaction on `db` that is then rolled back. */
async function rolledBack<R>(db: Db, body: (tx: Transaction) => Promise<R>): Promise<R> {
  let result: R | undefined;
  await db
    .transaction(async (tx) => {
      result = await body(tx);
      throw new Rollback();
    })
    .catch((e) => {
      if (!(e instanceof Rollback)) throw e;
    });
  return result!;
}
class Rollback extends Error {}
