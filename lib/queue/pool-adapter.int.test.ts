import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_URL } from "../../scripts/test/database";
import { type CuttableProxy, cuttableProxy } from "../../scripts/test/cuttable-proxy";
import { isDatabaseUnavailable } from "../db/errors";
import { poolAdapter } from "./pool-adapter";

/*
 * pg-boss's supervision runs its scripts (`BEGIN; ... COMMIT;`) on a reserved connection of the queue's
 * postgres.js pool. A failover closes that connection under the script. postgres.js 3.4.9 then gave the
 * closed connection back to the pool as an open one with no socket, where it failed every statement it
 * was handed from then on (patches/postgres+3.4.9.patch): a worker's heartbeats, completions and the
 * supervision that retries a lost job failed one time in `max`, for good.
 */
const real = new URL(ADMIN_URL);
let proxy: CuttableProxy | undefined;
let sql: postgres.Sql | undefined;

afterEach(async () => {
  await sql?.end({ timeout: 1 });
  await proxy?.close();
  proxy = undefined;
});

describe("the queue's pool adapter", () => {
  it("takes every later statement after a connection closed under one of its transactions", async () => {
    const server = (proxy = await cuttableProxy({ host: real.hostname, port: Number(real.port || 5432) }));
    sql = postgres(`postgres://${real.username || "postgres"}@127.0.0.1:${server.port}/postgres`, {
      max: 2,
      connect_timeout: 2,
      backoff: () => 0.05,
      onnotice: () => {},
    });
    const db = poolAdapter(sql);
    await db.executeSql("select 1");

    const inFlight = db.executeSql("BEGIN; SELECT pg_sleep(2); COMMIT;").then(
      () => new Error("the script survived its connection"),
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 300));
    server.cut();
    expect(isDatabaseUnavailable(await inFlight)).toBe(true);

    // Statements and scripts at once, so each of the pool's connections is used, the cut one included.
    const after = await Promise.all(
      [
        ...Array.from({ length: 20 }, () => db.executeSql("select pg_sleep(0.02)")),
        ...Array.from({ length: 4 }, () => db.executeSql("BEGIN; SELECT 1; COMMIT;")),
      ].map((p) =>
        p.then(
          () => "ok",
          (e: Error & { code?: string }) => e.code ?? e.message,
        ),
      ),
    );
    expect(after.filter((r) => r !== "ok")).toEqual([]);
  });
  it("gives a script its connection once the database is back, when the pool took its reservation up to reconnect", async () => {
    const server = (proxy = await cuttableProxy({ host: real.hostname, port: Number(real.port || 5432) }));
    sql = postgres(`postgres://${real.username || "postgres"}@127.0.0.1:${server.port}/postgres`, {
      max: 1,
      connect_timeout: 2,
      backoff: () => 0.5,
      onnotice: () => {},
    });
    const db = poolAdapter(sql);
    server.refuse(true);
    // The pool's one connection connects for this statement and is refused; meanwhile the script's
    // reservation waits in the pool's queue, and the refused connection takes it up to connect again.
    const refused = db.executeSql("select 1").then(
      () => new Error("answered while refusing"),
      (e: unknown) => e,
    );
    await new Promise((r) => setImmediate(r)); // the statement goes out on a later tick (postgres.js is lazy)
    const script = db.executeSql("BEGIN; SELECT 2 AS n; COMMIT;");
    expect(isDatabaseUnavailable(await refused)).toBe(true);
    server.refuse(false);
    // postgres.js 3.4.9 handed the reconnected connection to its queue instead, where the reservation no
    // longer was: the script waited forever (pg-boss's supervision, after a failover).
    const answer = await Promise.race([
      script,
      new Promise((r) => setTimeout(() => r("still waiting after 10 s"), 10_000)),
    ]);
    expect(answer).toEqual({ rows: [{ n: 2 }] });
    expect(await db.executeSql("select 3 as n")).toEqual({ rows: [{ n: 3 }] });
  }, 20_000);
});
