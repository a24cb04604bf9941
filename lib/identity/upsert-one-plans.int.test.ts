import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb, type Db } from "../../db/client";
import { openPlansDatabase, pagesTouched, rowsRead } from "../../scripts/test/plans";
import { upsertUser, upsertUsers } from "../users/upsert-user";
import { upsertOneCall } from "./upsert-one";
import { systemContext } from "@/lib/access/context";

/**
 * The one-call upsert must probe, not scan, whatever the planner believes about the tables. PL/pgSQL
 * keeps a generic plan per statement and connection; with the users table estimated small (statistics
 * taken while the project was new), 0017's lookup joined the pairs with the records and was planned as a
 * scan of the project's users in id order, so each POST /users read every user of its project twice.
 * Here the statistics are taken on an empty table on purpose, the project then gets 600 users, and one
 * connection calls the function often enough to use its generic plans: a new user's call and an existing
 * user's call must each read a handful of users, not the project, and both must touch as many pages in
 * a project of 9,600 users as in one of 3,600 (pages catch a scan that steps over index entries without
 * fetching their rows, which the row counts cannot see).
 */
let plans: Awaited<ReturnType<typeof openPlansDatabase>>;
/** Every measured call goes through this one connection, so its PL/pgSQL and prepared plans are reused. */
let db: Db;
let projectId: string;
const USERS = 600;

beforeAll(async () => {
  plans = await openPlansDatabase("relay_upsert_plans", [
    "users",
    "user_identifiers",
    "schedule_assignments",
    "schedule_firings",
  ]);
  ({ db, projectId } = plans);
  const ctx = systemContext(getDb(), projectId);
  for (let b = 0; b < USERS / 200; b++) {
    await upsertUsers(
      ctx,
      Array.from({ length: 200 }, (_, i) => ({
        identifier: [{ source: "default", external_id: `seed-${b}-${i}` }],
        data: { i },
      })),
    );
  }
}, 60_000);
afterAll(() => plans.close());

const usersFetched = async (body: Parameters<typeof rowsRead>[2]) => (await rowsRead(db, ["users"], body)).users;

it("a single upsert reads the users it names, not the project's", async () => {
  // More calls than PL/pgSQL's five custom plans, on the one connection, so the generic plans are in use.
  for (let i = 0; i < 8; i++)
    await upsertUser(systemContext(db, projectId), { identifier: [{ source: "default", external_id: `warm-${i}` }] });
  for (let i = 0; i < 8; i++)
    await upsertUser(systemContext(db, projectId), {
      identifier: [{ source: "default", external_id: `seed-0-${i}` }],
      data: { warm: i },
    });

  let created = false;
  const newUser = await usersFetched(async (tx) => {
    created = (
      await upsertUser(systemContext(tx, projectId), {
        identifier: [{ source: "default", external_id: "fresh" }],
        data: { a: 1 },
      })
    ).created;
  });
  expect(created).toBe(true);
  const existing = await usersFetched(async (tx) => {
    created = (
      await upsertUser(systemContext(tx, projectId), {
        identifier: [{ source: "default", external_id: "seed-1-7" }],
        data: { a: 2 },
      })
    ).created;
  });
  expect(created).toBe(false);
  // A new user: the response's read of its row. An existing one: its lock, its merge and the response.
  expect(newUser).toBeLessThanOrEqual(3);
  expect(existing).toBeLessThanOrEqual(6);
});

it("a batch reads the users it names, not the project's", async () => {
  const batch = (n: number, tag: string) =>
    Array.from({ length: n }, (_, i) => ({
      identifier: [{ source: "default", external_id: `seed-2-${i}` }],
      data: { tag },
    }));
  // Prepared statements switch to a generic plan after five executions, as PL/pgSQL's do.
  for (let i = 0; i < 8; i++) await upsertUsers(systemContext(db, projectId), batch(5, `warm-${i}`));
  const fetched = await usersFetched(async (tx) => upsertUsers(systemContext(tx, projectId), batch(20, "measured")));
  // Twenty users: their locks, their merge and their views (a few reads each), far from the project's 600.
  expect(fetched).toBeLessThanOrEqual(20 * 4);
});

/** Pages one call touched, every statement of the function included; rolled back. */
const pagesOf = (change: {
  identifier: { source: string; external_id: string }[];
  columns: Record<string, string>;
  data: Record<string, unknown>;
}) => pagesTouched(db, upsertOneCall("user", projectId, JSON.stringify(change)));

/** A new user, and an existing one gaining an identifier, an email and a data key: every statement of the function. */
const newUser = (tag: string) =>
  pagesOf({
    identifier: [{ source: "default", external_id: `pages-${tag}` }],
    columns: { email: `${tag}@example.com` },
    data: { tag },
  });
const existingUser = (tag: string) =>
  pagesOf({
    identifier: [
      { source: "default", external_id: "seed-1-3" },
      { source: "extra", external_id: `pages-${tag}` },
    ],
    columns: { email: `${tag}@example.com` },
    data: { tag },
  });

it("a call touches as many pages in a project of 9,600 users as in one of 3,600", async () => {
  // 0023 read a new user's assignment back in a join that the generic plan served from the index by
  // (project, schedule, id) bounded by the project alone: every assignment of the project, on every call.
  // Pages, not rows: that scan stepped over the index entries and fetched one row.
  for (let i = 0; i < 8; i++) {
    await upsertUser(systemContext(db, projectId), {
      identifier: [{ source: "default", external_id: `pages-warm-${i}` }],
    });
    await upsertUser(systemContext(db, projectId), {
      identifier: [
        { source: "default", external_id: "seed-1-4" },
        { source: "extra", external_id: `warm-${i}` },
      ],
      email: `w${i}@example.com`,
      data: { w: i },
    });
  }
  const seed = async (from: number, to: number) => {
    for (let b = from; b < to; b++) {
      await upsertUsers(
        systemContext(getDb(), projectId),
        Array.from({ length: 1000 }, (_, i) => ({
          identifier: [{ source: "default", external_id: `more-${b}-${i}` }],
          data: { i },
        })),
      );
    }
  };
  // From 3,600 users on, the indexes a call enters are two levels deep, and stay so past 9,600.
  await seed(0, 3);
  const before = { created: await newUser("before"), existing: await existingUser("before") };
  await seed(3, 9);
  const after = { created: await newUser("after"), existing: await existingUser("after") };
  expect(before.created).toBeGreaterThan(10);
  expect(before.existing).toBeGreaterThan(10);
  // A scan of the project's assignments (or users, or identifiers) would read 40 or more pages more.
  expect(after.created - before.created).toBeLessThanOrEqual(4);
  expect(after.existing - before.existing).toBeLessThanOrEqual(4);
}, 60_000);
