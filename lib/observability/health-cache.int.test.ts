import { afterAll, afterEach, describe, expect, inject, it } from "vitest";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import { cachedReadiness } from "./health";

/*
 * The readiness endpoint is public: however often it is called, the database answers one readiness
 * statement per HEALTH_CACHE_SECONDS per process (callers arriving while it runs share it). Counted here
 * by the statements the verb sends on a connection of this file's own.
 */
const sql = postgres(inject("databaseUrl"), { max: 2, onnotice: () => {} });
let sent = 0;
const db = drizzle(sql, {
  schema,
  casing: "snake_case",
  logger: { logQuery: () => void sent++ },
}) as unknown as Db;
const setting = process.env.HEALTH_CACHE_SECONDS;

afterEach(() => {
  if (setting === undefined) delete process.env.HEALTH_CACHE_SECONDS;
  else process.env.HEALTH_CACHE_SECONDS = setting;
});
afterAll(async () => {
  await sql.end({ timeout: 2 });
});

describe("readiness caching", () => {
  it("answers every caller within the interval from one statement, and reads again once it has passed", async () => {
    // Nothing else in this file's process has asked yet: the first call reads.
    process.env.HEALTH_CACHE_SECONDS = "3";
    sent = 0;
    const first = await cachedReadiness({ db });
    expect(sent).toBe(1);
    const burst = await Promise.all(Array.from({ length: 20 }, () => cachedReadiness({ db })));
    for (let i = 0; i < 5; i++) burst.push(await cachedReadiness({ db }));
    expect(sent).toBe(1);
    for (const r of burst) expect(r).toBe(first);
    // The interval passes: the next caller reads again.
    await new Promise((r) => setTimeout(r, 3_100));
    await cachedReadiness({ db });
    expect(sent).toBe(2);
  });

  it("reads on every call when HEALTH_CACHE_SECONDS is 0", async () => {
    process.env.HEALTH_CACHE_SECONDS = "0";
    sent = 0;
    for (let i = 0; i < 3; i++) await cachedReadiness({ db });
    expect(sent).toBe(3);
  });
});
