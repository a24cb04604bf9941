import { sql as dsql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createTestDatabase } from "../../scripts/test/database";
import { closeDatabase, getDb, type Db, type Transaction } from "../../db/client";
import { events } from "../../db/schema";
import { createProjectWithOwner } from "../projects/create-project";
import { stopBoss } from "../queue/boss";
import { upsertUsers } from "../users/upsert-user";
import { listIdentifiers } from "../identity/resolve";
import { loadEvents } from "../pipeline/run-step";
import { addMembers } from "../organizations/add-members";
import { upsertOrganizations } from "../organizations/upsert-organization";
import { systemContext } from "@/lib/access/context";
import { uuidv7s } from "./uuidv7";

/**
 * Reads by a list of ids must probe the key whatever the planner believes. With statistics taken while
 * the tables were empty (or before a project grew), `project_id = $p and id = any($ids)` on events was
 * planned through an index on (project_id, name): twenty events found by reading the project's history.
 * Same for a page of records' identifiers. One connection, past the five custom plans of a prepared
 * statement, so the generic plans are the ones measured.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let client: postgres.Sql;
let db: Db;
let projectId: string;
const EVENTS = 4_000;
const USERS = 1_000;
const N = 20;
let eventIds: string[];
let userIds: string[];

beforeAll(async () => {
  database = await createTestDatabase("relay_probe_plans");
  await closeDatabase();
  process.env.DATABASE_URL = database.url;
  projectId = (await createProjectWithOwner(getDb(), { orgName: "plans", projectName: "plans", ownerEmail: `plans-${crypto.randomUUID()}@example.com` })).project.id;
  await getDb().execute(dsql`analyze events; analyze user_identifiers; analyze organization_members`);
  eventIds = uuidv7s(EVENTS);
  for (let b = 0; b < EVENTS; b += 1_000) {
    await getDb().insert(events).values(eventIds.slice(b, b + 1_000).map((id, i) => ({ projectId, id, name: `e${i % 5}`, data: { i } })));
  }
  const ctx = systemContext(getDb(), projectId);
  userIds = [];
  for (let b = 0; b < USERS / 500; b++) {
    const made = await upsertUsers(ctx, Array.from({ length: 500 }, (_, i) => ({ identifier: [{ source: "default", external_id: `u-${b}-${i}` }, { source: "crm", external_id: `c-${b}-${i}` }] })));
    userIds.push(...made.users.map((u) => u.id));
  }
  await upsertOrganizations(ctx, [{ identifier: [{ source: "default", external_id: "acme" }] }]);
  await addMembers(ctx, memberships(0, USERS, "seed"), (i) => `[${i}].`);
  client = postgres(database.url, { max: 1, onnotice: () => {} });
  db = drizzle(client, { schema, casing: "snake_case" });
}, 120_000);
afterAll(async () => {
  await stopBoss(2_000);
  await client.end();
  await closeDatabase();
  await database.drop();
});

/** Rows of `table` the transaction read, by index or by sequential scan (pg_stat_xact_user_tables counts the open transaction). */
async function rowsRead(table: string, body: (tx: Transaction) => Promise<void>): Promise<number> {
  let read = -1;
  await db
    .transaction(async (tx) => {
      const count = async () => Number((await tx.execute(dsql`select coalesce(idx_tup_fetch, 0) + seq_tup_read as n from pg_stat_xact_user_tables where relname = ${table}`))[0]?.n ?? 0);
      const before = await count();
      await body(tx);
      read = (await count()) - before;
      throw new Rollback();
    })
    .catch((e) => {
      if (!(e instanceof Rollback)) throw e;
    });
  return read;
}
class Rollback extends Error {}

it("a pipeline step loads its batch's events, not the project's", async () => {
  for (let i = 0; i < 8; i++) await loadEvents(systemContext(db, projectId), eventIds.slice(i * 5, i * 5 + 5));
  const ids = eventIds.slice(-N);
  let loaded: Awaited<ReturnType<typeof loadEvents>> = [];
  const read = await rowsRead("events", async (tx) => {
    loaded = await loadEvents(systemContext(tx, projectId), ids);
  });
  expect(loaded.map((e) => e.id).sort()).toEqual([...ids].sort());
  expect(loaded[0]!.occurredAt).toBeInstanceOf(Date);
  expect(read).toBeLessThanOrEqual(N);
});

it("a page of records lists its records' identifiers, not the project's", async () => {
  for (let i = 0; i < 8; i++) await listIdentifiers(systemContext(db, projectId), "user", userIds.slice(i * 5, i * 5 + 5));
  const ids = userIds.slice(-N);
  let listed = new Map<string, unknown[]>();
  const read = await rowsRead("user_identifiers", async (tx) => {
    listed = await listIdentifiers(systemContext(tx, projectId), "user", ids);
  });
  expect([...listed.keys()].sort()).toEqual([...ids].sort());
  expect([...listed.values()].every((l) => l.length === 2)).toBe(true);
  expect(read).toBeLessThanOrEqual(N * 2);
});

/** Memberships of acme for users from..to-1 (all seeded), with a tag in their data. */
function memberships(from: number, to: number, tag: string) {
  return Array.from({ length: to - from }, (_, i) => {
    const n = from + i;
    return { organization: { identifier: [{ source: "default", external_id: "acme" }] }, user: { identifier: [{ source: "default", external_id: `u-${Math.floor(n / 500)}-${n % 500}` }] }, data: { tag } };
  });
}

it("a batch of memberships locks, merges and reads its own memberships, not the organization's", async () => {
  for (let i = 0; i < 8; i++) await addMembers(systemContext(db, projectId), memberships(i * 5, i * 5 + 5, `warm-${i}`), (j) => `[${j}].`);
  let updated = 0;
  const read = await rowsRead("organization_members", async (tx) => {
    const r = await addMembers(systemContext(tx, projectId), memberships(USERS - N, USERS, "measured"), (j) => `[${j}].`);
    updated = r.memberships.filter((m) => m.data.tag === "measured").length;
  });
  expect(updated).toBe(N);
  // Per membership: the insert's conflict check, its lock, its merge and its read.
  expect(read).toBeLessThanOrEqual(N * 5);
});
