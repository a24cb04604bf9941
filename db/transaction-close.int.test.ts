import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_URL } from "../scripts/test/database";
import { type CuttableProxy, cuttableProxy } from "../scripts/test/cuttable-proxy";

/*
 * A transaction whose connection closes (the database killed, a failover) makes `sql.begin` reject, but its
 * callback goes on running. postgres.js 3.4.9 sent the callback's later statements, and its COMMIT, on the
 * same Connection object once the pool had connected it again: outside any transaction, or inside another
 * caller's. Half a transaction then committed on its own, and an effect and its done-marker came apart
 * (patches/postgres+3.4.9.patch). The connection here goes through a relay the test cuts.
 */
const real = new URL(ADMIN_URL);
const database = `relay_txclose_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
let proxy: CuttableProxy | undefined;
let sql: postgres.Sql | undefined;
let admin: postgres.Sql;

beforeAll(async () => {
  const root = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await root.unsafe(`create database "${database}"`);
  await root.end();
  admin = postgres(urlOf(real.hostname, Number(real.port || 5432)), { max: 1, onnotice: () => {} });
  await admin`create table effects (id int primary key)`;
});

afterAll(async () => {
  await admin?.end();
  const root = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await root.unsafe(`drop database if exists "${database}" with (force)`);
  await root.end();
});

afterEach(async () => {
  await sql?.end({ timeout: 1 });
  sql = undefined;
  await proxy?.close();
  proxy = undefined;
  await admin`truncate effects`;
});

function urlOf(host: string, port: number) {
  return `postgres://${real.username || "postgres"}@${host}:${port}/${database}`;
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

function outcome(p: Promise<unknown>) {
  return p.then(
    () => "ok",
    (e: Error & { code?: string }) => e.code ?? e.message,
  );
}

async function committed() {
  const rows = await admin<{ id: number }[]>`select id from effects order by id`;
  return rows.map((r) => r.id);
}

/**
 * Starts a transaction that inserts 1, waits for `resume`, then inserts 2; cuts its connection while it
 * waits, and lets `meanwhile` use the pool (which connects again through the relay) before it resumes.
 */
async function cutUnderTransaction(meanwhile: (sql: postgres.Sql) => Promise<unknown>) {
  const server = (proxy = await cuttableProxy({ host: real.hostname, port: Number(real.port || 5432) }));
  const pool = postgres(urlOf("127.0.0.1", server.port), {
    max: 1,
    connect_timeout: 2,
    backoff: () => 0.05,
    onnotice: () => {},
  });
  sql = pool;
  const firstDone = gate();
  const resume = gate();
  let later: Promise<unknown> | undefined;
  const begun = outcome(
    pool.begin(async (tx) => {
      await tx`insert into effects values (1)`;
      firstDone.open();
      await resume.opened;
      later = tx`insert into effects values (2)`;
      await later;
    }),
  );
  await firstDone.opened;
  server.cut();
  const beginResult = await begun;
  const other = await meanwhile(pool);
  resume.open();
  await new Promise((r) => setTimeout(r, 50));
  const laterResult = later ? await outcome(later) : "never issued";
  return { beginResult, laterResult, other };
}

/** Whatever the cut transaction's callback did, the pool still serves everyone else. */
async function poolStillWorks() {
  const [row] = await sql!`select 1 as one`;
  expect(row!.one).toBe(1);
}

describe("a transaction whose connection closed", () => {
  it("rejects, and its later statements do not run on the reconnected connection", async () => {
    const r = await cutUnderTransaction((pool) => pool`select 1`);
    expect(r.beginResult).toBe("CONNECTION_CLOSED");
    expect(r.laterResult).toMatch(/^CONNECTION_(CLOSED|ENDED)$/);
    expect(await committed()).toEqual([]);
    await poolStillWorks();
  });

  it("does not send its statements into another caller's transaction on that connection", async () => {
    const inOther = gate();
    const release = gate();
    let otherTx: Promise<string> | undefined;
    const r = await cutUnderTransaction(async (pool) => {
      otherTx = outcome(
        pool.begin(async (tx) => {
          await tx`insert into effects values (3)`;
          inOther.open();
          await release.opened;
        }),
      );
      await inOther.opened;
    });
    // The first transaction's callback has resumed while the other holds the only connection.
    release.open();
    expect(await otherTx).toBe("ok");
    expect(r.beginResult).toBe("CONNECTION_CLOSED");
    expect(r.laterResult).toMatch(/^CONNECTION_(CLOSED|ENDED)$/);
    expect(await committed()).toEqual([3]);
    await poolStillWorks();
  });
});
