import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb, type Db } from "../../db/client";
import { openPlansDatabase, rowsRead } from "../../scripts/test/plans";
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
let plans: Awaited<ReturnType<typeof openPlansDatabase>>;
/** Every measured call goes through this one connection, so its PL/pgSQL and prepared plans are reused. */
let db: Db;
let projectId: string;
const USERS = 600;

beforeAll(async () => {
  plans = await openPlansDatabase("relay_upsert_plans", ["users", "user_identifiers"]);
  ({ db, projectId } = plans);
  const ctx = systemContext(getDb(), projectId);
  for (let b = 0; b < USERS / 200; b++) {
    await upsertUsers(ctx, Array.from({ length: 200 }, (_, i) => ({ identifier: [{ source: "default", external_id: `seed-${b}-${i}` }], data: { i } })));
  }
}, 60_000);
afterAll(() => plans.close());

const usersFetched = async (body: Parameters<typeof rowsRead>[2]) => (await rowsRead(db, ["users"], body)).users;

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
