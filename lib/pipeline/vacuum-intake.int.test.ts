import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { createTestDatabase } from "../../scripts/test/database";
import type { Db } from "../../db/client";
import { intakeVacuum } from "./vacuum-intake";

/*
 * The intake stays the size of its backlog however much passes through it (vacuum-intake.ts). Rows go in
 * and out as the drain moves them (inserted, then deleted a batch at a time); the table's size on disk is
 * compared with what the same traffic leaves without the vacuum.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase("relay_vacuum_intake");
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  db = drizzle(sql) as unknown as Db;
}, 60_000);

afterAll(async () => {
  await sql.end();
  await database.drop();
});

const BATCH = 1_000;
const BATCHES = 30;

/** Moves BATCHES batches through the intake, telling `vacuum` each one; the table's pages after. */
async function traffic(vacuum: { drained(n: number): Promise<void> }): Promise<number> {
  await sql`truncate event_intake`;
  for (let b = 0; b < BATCHES; b++) {
    await sql`insert into event_intake (project_id, id, kind, name, data)
      select gen_random_uuid(), gen_random_uuid(), 'user', 'order.paid', jsonb_build_object('note', repeat('x', 200), 'n', g)
      from generate_series(1, ${BATCH}) g`;
    const gone = await sql`delete from event_intake`;
    await vacuum.drained(gone.count);
  }
  const [{ pages }] = await sql<{ pages: number }[]>`
    select (pg_relation_size('event_intake') / current_setting('block_size')::int)::int as pages`;
  return pages;
}

describe("the intake's vacuum", () => {
  it("keeps the table the size of a few batches where, unvacuumed, it holds every row that passed", async () => {
    const unvacuumed = await traffic({ drained: async () => {} });
    const vacuumed = await traffic(intakeVacuum({ db }, { rows: 2 * BATCH, ms: 0 }));
    // A batch's rows fill about 1/BATCHES of the unvacuumed table; vacuumed every second batch, the table
    // reuses its pages and holds a few batches' worth at most.
    expect(unvacuumed).toBeGreaterThan(BATCHES * 20);
    expect(vacuumed).toBeLessThan(unvacuumed / 5);
  }, 120_000);

  it("vacuums no more often than its interval allows", async () => {
    const unvacuumed = await traffic({ drained: async () => {} });
    // Due at the second batch, then not again within the minute: the table grows as if never vacuumed.
    const once = await traffic(intakeVacuum({ db }, { rows: 2 * BATCH, ms: 60_000 }));
    expect(once).toBeGreaterThan(unvacuumed / 2);
  }, 120_000);
});
