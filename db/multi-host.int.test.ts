import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_URL } from "../scripts/test/database";
import { isDatabaseUnavailable } from "../lib/db/errors";
import { closeDatabase, getSql } from "./client";

/*
 * The pool on a multi-host DATABASE_URL as pg_auto_failover prints it, against the two ways a failover
 * looks from the client: a host that takes the connection and never answers (a machine gone without a
 * reset), and a host that answers but is read-only (the standby before its promotion). postgres.js needed
 * a patch for both (patches/postgres+3.4.9.patch): a connect timeout failed the query instead of moving
 * on to the next host, and with no writable host a query cycled through the hosts forever, never failing.
 */
const real = new URL(ADMIN_URL);
const realHost = `${real.hostname}:${real.port || 5432}`;

const servers: net.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  await closeDatabase();
  for (const c of sockets.splice(0)) c.destroy();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A port nothing listens on (refuses at once, as a SIGKILLed PostgreSQL's does). */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Accepts connections and never says a word, like a host whose PostgreSQL is wedged. */
async function silentHost(): Promise<number> {
  const s = net.createServer((c) => sockets.push(c));
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return (s.address() as net.AddressInfo).port;
}

/** Forwards a port to the real server from the moment it is called: a standby promoted on `port`. */
async function promoteOn(port: number) {
  const s = net.createServer((c) => {
    const up = net.connect(Number(real.port || 5432), real.hostname);
    sockets.push(c, up);
    c.pipe(up).pipe(c);
    c.on("error", () => up.destroy());
    up.on("error", () => c.destroy());
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(port, "127.0.0.1", r));
}

function usePool(hosts: string[], params = "") {
  process.env.DATABASE_URL = `postgres://${real.username || "postgres"}@${hosts.join(",")}/postgres?target_session_attrs=read-write${params}`;
  process.env.DATABASE_CONNECT_TIMEOUT = "1";
  return getSql();
}

describe("a multi-host DATABASE_URL", () => {
  it("moves on to the next host when one does not answer within the connect timeout", async () => {
    const sql = usePool([`127.0.0.1:${await silentHost()}`, realHost]);
    const started = Date.now();
    const [row] = await sql`select 1 as one`;
    expect(row!.one).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("fails a query as unavailable, soon, when no host is writable (the standby before its promotion)", async () => {
    // The real server stands in for the standby: read-only for these connections, as a hot standby is.
    const sql = usePool([`127.0.0.1:${await closedPort()}`, realHost], "&default_transaction_read_only=on");
    const started = Date.now();
    const err = await Promise.race([
      sql`select 1`.then(
        () => new Error("a read-only host was taken for a read-write one"),
        (e: unknown) => e,
      ),
      new Promise((r) => setTimeout(() => r(new Error("still waiting after 10 s")), 10_000)),
    ]);
    expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("connects to the promoted host on the next query once one is writable", async () => {
    const promoted = await closedPort();
    const sql = usePool([`127.0.0.1:${await closedPort()}`, `127.0.0.1:${promoted}`]);
    const refused = await sql`select 1`.catch((e: unknown) => e);
    expect(isDatabaseUnavailable(refused), String(refused)).toBe(true);
    await promoteOn(promoted);
    const started = Date.now();
    for (;;) {
      const ok = await sql`select 1 as one`.then(
        (r) => r[0]!.one === 1,
        () => false,
      );
      if (ok) break;
      expect(Date.now() - started).toBeLessThan(5_000);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it("drops a connection whose node stopped taking writes, so the next write finds a writable one", async () => {
    // pg_auto_failover promotes a standby with default_transaction_read_only turned on by a reload, and a
    // connection that opened just before the reload reached it turns read-only under the pool: every write
    // on it then failed with 25006 until the node took writes again. One session set read-only stands in.
    process.env.DATABASE_POOL_SIZE = "1";
    try {
      const sql = usePool([realHost]);
      const [before] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await sql`set default_transaction_read_only = on`;
      const refused = await sql`create temp table read_only_probe (x int)`.catch((e: unknown) => e);
      expect(isDatabaseUnavailable(refused), String(refused)).toBe(true);
      const [after] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      expect(after!.pid).not.toBe(before!.pid);
      await sql`create temp table read_only_probe (x int)`;
    } finally {
      delete process.env.DATABASE_POOL_SIZE;
    }
  });
});
