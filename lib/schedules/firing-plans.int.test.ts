import { sql as dsql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb, type Db } from "../../db/client";
import { openPlansDatabase, rowsRead } from "../../scripts/test/plans";
import { upsertUsers } from "../users/upsert-user";
import { fireDueFirings } from "./fire-due";
import { loadAssignmentViews } from "./view";
import { systemContext } from "@/lib/access/context";

/**
 * The firing loop must find its rows by key whatever the planner believes about the tables. With the
 * statistics taken while the tables were empty (a new installation, or autovacuum behind a fast import),
 * `project_id = $p and id = any($ids)` was planned through another index on project_id: 20 firings were
 * found by reading all of the project's firings, 20 assignments locked by reading all its assignments.
 * Here a project's users all have their anniversary due at once; batches of 20 are fired on one
 * connection (so prepared statements reach their generic plans), and the measured batch must read a
 * few rows per firing, not the project's 3,000.
 */
let plans: Awaited<ReturnType<typeof openPlansDatabase>>;
let db: Db;
let projectId: string;
const USERS = 3_000;
const BATCH = 20;
/** After every anniversary is due (one year from creation) and before any is an hour late. */
let dueAt: Date;

beforeAll(async () => {
  plans = await openPlansDatabase("relay_firing_plans", [
    "schedules",
    "schedule_offsets",
    "schedule_assignments",
    "schedule_firings",
  ]);
  ({ db, projectId } = plans);
  const ctx = systemContext(getDb(), projectId);
  for (let b = 0; b < USERS / 500; b++) {
    await upsertUsers(
      ctx,
      Array.from({ length: 500 }, (_, i) => ({ identifier: [{ source: "default", external_id: `u-${b}-${i}` }] })),
    );
  }
  const [last] = await getDb().execute(
    dsql`select max(fire_at) as at from schedule_firings where project_id = ${projectId}`,
  );
  dueAt = new Date(new Date(last!.at as string).getTime() + 60_000);
}, 120_000);
afterAll(() => plans.close());

const TABLES = ["schedule_firings", "schedule_assignments"] as const;

it("a batch of firings reads its own firings and assignments, not the project's", async () => {
  // Past the five custom plans a prepared statement gets before its generic one.
  for (let i = 0; i < 8; i++)
    expect((await fireDueFirings({ db }, { now: dueAt, batchSize: BATCH })).fired).toBe(BATCH);
  let fired = 0;
  const r = await rowsRead(db, TABLES, async (tx) => {
    // A savepoint inside the measured transaction: fireDueFirings opens its own (nested) transaction.
    fired = (await fireDueFirings({ db: tx as unknown as Db }, { now: dueAt, batchSize: BATCH })).fired;
  });
  expect(fired).toBe(BATCH);
  // Per firing: the claim, its assignment's lock, the fired mark, the cycle's close and the next
  // year's firing (each a key probe or two); far from the project's 3,000.
  expect(r.schedule_firings).toBeLessThanOrEqual(BATCH * 6);
  expect(r.schedule_assignments).toBeLessThanOrEqual(BATCH * 6);
});

it("assignment views read the assignments they show", async () => {
  const [{ ids }] = (await getDb().execute(
    dsql`select array_agg(id order by id desc) as ids from (select id from schedule_assignments where project_id = ${projectId} order by id desc limit ${BATCH}) a`,
  )) as unknown as [{ ids: string[] }];
  for (let i = 0; i < 8; i++) await loadAssignmentViews(systemContext(db, projectId), ids.slice(0, 5));
  let shown = 0;
  const r = await rowsRead(db, TABLES, async (tx) => {
    shown = (await loadAssignmentViews(systemContext(tx, projectId), ids)).length;
  });
  expect(shown).toBe(BATCH);
  expect(r.schedule_assignments).toBeLessThanOrEqual(BATCH * 2);
  expect(r.schedule_firings).toBeLessThanOrEqual(BATCH * 4);
});
