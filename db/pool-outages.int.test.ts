import { afterAll, describe, expect, it } from "vitest";
import { ADMIN_URL } from "../scripts/test/database";
import { type CuttableProxy, cuttableProxy } from "../scripts/test/cuttable-proxy";
import { mulberry32 } from "../scripts/test/prng";
import { isDatabaseUnavailable } from "../lib/db/errors";
import { poolAdapter } from "../lib/queue/pool-adapter";
import { closeDatabase, getQueueSql, getSql } from "./client";

/*
 * The process's two pools (db/client.ts: the main one, and pg-boss's through lib/queue/pool-adapter.ts) on
 * a multi-host DATABASE_URL while the writable node dies and another takes over, again and again, under
 * concurrent statements, transactions and pg-boss-style scripts on reserved connections. Each outage
 * resets or ends every connection to the lost node and refuses new ones; after a pause the other node
 * accepts. A statement may fail while no node takes it, but only as "unavailable", and every one must
 * settle: a promise postgres.js never settles hangs a worker's handler, or pg-boss's supervision, for good
 * (CI saw pipeline jobs stay active after a failover that way). An unhandled rejection fails the run.
 * The schedule is seeded, so a failure repeats.
 */
const real = new URL(ADMIN_URL);
const target = { host: real.hostname, port: Number(real.port || 5432) };
const OUTAGES = 8;
const CLIENTS = 10;

let nodes: CuttableProxy[] = [];
afterAll(async () => {
  await closeDatabase();
  for (const n of nodes) await n.close();
});

type Outcome = "ok" | "unavailable" | string;

describe("the pools through repeated failovers", () => {
  it("settle every statement, transaction and script, fail them only as unavailable, and recover every connection", async () => {
    nodes = [await cuttableProxy(target), await cuttableProxy(target)];
    nodes[1]!.refuse(true);
    process.env.DATABASE_URL = `postgres://${real.username || "postgres"}@${nodes.map((n) => `127.0.0.1:${n.port}`).join(",")}/postgres?target_session_attrs=read-write`;
    process.env.DATABASE_CONNECT_TIMEOUT = "2";
    const sql = getSql();
    const queue = poolAdapter(getQueueSql(3));
    const random = mulberry32(20261128);

    const kinds: Record<string, () => Promise<unknown>> = {
      statements: () => Promise.all([sql`select pg_sleep(0.005)`, sql`select 2`, sql`select 3`]),
      transaction: () =>
        sql.begin(async (tx) => {
          await tx`select 1`;
          await new Promise((r) => setTimeout(r, 20));
          await tx`select pg_sleep(0.01)`;
        }),
      script: () => queue.executeSql("BEGIN; SELECT 1; COMMIT;"),
      queued: () => queue.executeSql("select $1::int as n", [1]),
    };
    const names = Object.keys(kinds);
    const pending = new Map<number, string>();
    const outcomes: Outcome[] = [];
    let next = 0;
    let stopping = false;
    const run = async (kind: string) => {
      const id = next++;
      pending.set(id, kind);
      try {
        await kinds[kind]!();
        outcomes.push("ok");
      } catch (err) {
        outcomes.push(isDatabaseUnavailable(err) ? "unavailable" : `${kind}: ${(err as Error).message}`);
      } finally {
        pending.delete(id);
      }
    };
    const clients = Array.from({ length: CLIENTS }, async (_, i) => {
      for (let n = 0; !stopping; n++) await run(names[(i + n) % names.length]!);
    });

    for (let round = 0; round < OUTAGES; round++) {
      await new Promise((r) => setTimeout(r, 200 + random() * 400));
      const [lost, survivor] = round % 2 ? [nodes[1]!, nodes[0]!] : [nodes[0]!, nodes[1]!];
      lost.refuse(true);
      lost.cut({ reset: random() < 0.5 });
      await new Promise((r) => setTimeout(r, 100 + random() * 900));
      survivor.refuse(false);
    }
    await new Promise((r) => setTimeout(r, 1000));
    stopping = true;
    const settled = await Promise.race([
      Promise.all(clients).then(() => true),
      new Promise((r) => setTimeout(() => r(false), 15_000)),
    ]);
    expect(settled ? [] : [...pending.values()], "still waiting 15 s after the last failover").toEqual([]);
    expect(outcomes.filter((o) => o !== "ok" && o !== "unavailable")).toEqual([]);
    expect(outcomes.filter((o) => o === "unavailable").length).toBeGreaterThan(0);

    // Every connection of both pools is back: more of each kind at once than either pool has connections.
    const after = await Promise.all(
      names.flatMap((kind) =>
        Array.from({ length: 6 }, () =>
          kinds[kind]!().then(
            () => "ok",
            (e: Error) => e.message,
          ),
        ),
      ),
    );
    expect(after.filter((o) => o !== "ok")).toEqual([]);
  }, 60_000);
});
