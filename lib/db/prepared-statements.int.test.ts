import { afterAll, describe, expect, inject, it } from "vitest";
import { drizzle } from "drizzle-orm/postgres-js";
import { sql as q } from "drizzle-orm";
import postgres from "postgres";
import { preparing } from "../../db/client";

/*
 * drizzle's queries go through `preparing` (db/client.ts) so each is one round trip: a prepared statement
 * instead of an unnamed one that postgres.js describes first. One connection, so pg_prepared_statements
 * (per session) shows what the queries left behind.
 */
const raw = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
afterAll(() => raw.end({ timeout: 2 }));

const prepared = async (tx: postgres.Sql | postgres.TransactionSql = raw) =>
  (await tx`select statement from pg_prepared_statements`).map((r) => String(r.statement));

describe("prepared statements", () => {
  it("drizzle queries with parameters are prepared, in and out of transactions; large ones are not", async () => {
    const db = drizzle(preparing(raw));
    await db.execute(q`select ${41}::int + 1 as outside_tx`);
    await db.transaction(async (tx) => {
      await tx.execute(q`select ${"x"}::text as inside_tx`);
      await tx.transaction(async (sp) => void (await sp.execute(q`select ${"y"}::text as inside_savepoint`)));
    });
    const big = Array.from({ length: 300 }, (_, i) => q`${i}::int`);
    await db.execute(q`select greatest(${q.join(big, q`, `)}) as large_statement`);
    const names = (await prepared()).join("\n");
    expect(names).toMatch(/outside_tx/);
    expect(names).toMatch(/inside_tx/);
    expect(names).toMatch(/inside_savepoint/);
    expect(names).not.toMatch(/large_statement/);
  });

  it("without the wrapper drizzle leaves nothing prepared (the check can fail)", async () => {
    await drizzle(raw).execute(q`select ${1}::int as unwrapped`);
    expect((await prepared()).join("\n")).not.toMatch(/unwrapped/);
  });
});
