import { sql as dsql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createTestDatabase } from "../../scripts/test/database";
import { closeDatabase, getDb, type Db, type Transaction } from "../../db/client";
import { createProjectWithOwner } from "../projects/create-project";
import { stopBoss } from "../queue/boss";
import { upsertUser, upsertUsers } from "../users/upsert-user";
import { systemContext } from "@/lib/access/context";

/**
 * The one-call upsert must probe, not scan, whatever the planner believes about the tables. PL/pgSQL
 * keeps a generic plan per statement and connection; with the users table estimated small (statistics
 * taken while the project was new), 0017's lookup joined the pairs with the records and was planned as a
 * scan of the project's users in id order, so each POST /users read every user of its project twice.
 * Here the statistics are taken on an empty table on purpose, the project then gets 600 users, and one
 * connection calls the function often enough to use its generic plans: a new user's call and an existing
 * user's call must each read a handful of users, not the project.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let client: postgres.Sql;
/** Every measured call goes through this one connection, so its PL/pgSQL and prepared plans are reused. */
let db: Db;
let projectId: string;
const USERS = 600;

beforeAll(async () => {
  database = await createTestDatabase("relay_upsert_plans");
  await closeDatabase();
  process.env.DATABASE_URL = database.url;
  projectId = (await createProjectWithOwner(getDb(), { orgName: "plans", projectName: "plans", ownerEmail: `plans-${crypto.randomUUID()}@example.com` })).project.id;
  await getDb().execute(dsql`analyze users; analyze user_identifiers`);
  const ctx = systemContext(getDb(), projectId);
  for (let b = 0; b < USERS / 200; b++) {
    await upsertUsers(ctx, Array.from({ length: 200 }, (_, i) => ({ identifier: [{ source: "default", external_id: `seed-${b}-${i}` }], data: { i } })));
  }
  client = postgres(database.url, { max: 1, onnotice: () => {} });
  db = drizzle(client, { schema, casing: "snake_case" });
}, 60_000);
afterAll(async () => {
  await stopBoss(2_000);
  await client.end();
  await closeDatabase();
  await database.drop();
});

/** Users rows this transaction read, by index or by sequential scan (pg_stat_xact_user_tables counts the open transaction). */
async function usersFetched(body: (tx: Transaction) => Promise<unknown>): Promise<number> {
  let fetched = -1;
  await db
    .transaction(async (tx) => {
      const count = async () => Number((await tx.execute(dsql`select coalesce(idx_tup_fetch, 0) + seq_tup_read as n from pg_stat_xact_user_tables where relname = 'users'`))[0]?.n ?? 0);
      const before = await count();
      await body(tx);
      fetched = (await count()) - before;
      throw new Rollback();
    })
    .catch((e) => {
      if (!(e instanceof Rollback)) throw e;
    });
  return fetched;
}
class Rollback extends Error {}

it("a single upsert reads the users it names, not the project's", async () => {
  // More calls than PL/pgSQL's five custom plans, on the one connection, so the generic plans are in use.
  for (let i = 0; i < 8; i++) await upsertUser(systemContext(db, projectId), { identifier: [{ source: "default", external_id: `warm-${i}` }] });
  for (let i = 0; i < 8; i++) await upsertUser(systemContext(db, projectId), { identifier: [{ source: "default", external_id: `seed-0-${i}` }], data: { warm: i } });

  let created = false;
  const newUser = await usersFetched(async (tx) => {
    created = (await upsertUser(systemContext(tx, projectId), { identifier: [{ source: "default", external_id: "fresh" }], data: { a: 1 } })).created;
  });
  expect(created).toBe(true);
  const existing = await usersFetched(async (tx) => {
    created = (await upsertUser(systemContext(tx, projectId), { identifier: [{ source: "default", external_id: "seed-1-7" }], data: { a: 2 } })).created;
  });
  expect(created).toBe(false);
  // A new user: the response's read of its row. An existing one: its lock, its merge and the response.
  expect(newUser).toBeLessThanOrEqual(3);
  expect(existing).toBeLessThanOrEqual(6);
});

it("a batch reads the users it names, not the project's", async () => {
  const batch = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ identifier: [{ source: "default", external_id: `seed-2-${i}` }], data: { tag } }));
  // Prepared statements switch to a generic plan after five executions, as PL/pgSQL's do.
  for (let i = 0; i < 8; i++) await upsertUsers(systemContext(db, projectId), batch(5, `warm-${i}`));
  const fetched = await usersFetched(async (tx) => upsertUsers(systemContext(tx, projectId), batch(20, "measured")));
  // Twenty users: their locks, their merge and their views (a few reads each), far from the project's 600.
  expect(fetched).toBeLessThanOrEqual(20 * 4);
});
