import { randomUUID } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import postgres from "postgres";
import { startWorker, waitFor } from "../scripts/test/worker";
import { eventsBody, newUserBody, newUsersBody } from "./bodies";
import { benchEnvironment, load } from "./harness";

/**
 * Identity write speed, each figure beside its baseline from the same run on the same server:
 * - /users/batch (1,000 new users per request, 4 connections) vs events accepted (batches of 100);
 * - POST /users creating users vs the same route answering 401 (no key): the per-request floor;
 * - an import of IMPORT_ROWS (default 1,000,000) users from CSV: time, and peak memory (VmHWM) of the web
 *   and worker processes (IMPORT_ROWS=0 skips it).
 * `npm run bench -- users`; BENCH_SECONDS (default 10) sets each load's duration, BENCH_ROUNDS (default 3)
 * how many times the four loads run (the ratios are the medians of the rounds). Beside each rate it prints
 * the machine's busy CPU per unit of work (bench/harness.ts, busySeconds) and the same ratios by cost.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Rounds of the four loads (BENCH_ROUNDS, default 3); the ratios printed are their medians. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const IMPORT_ROWS = Number(process.env.IMPORT_ROWS ?? 1_000_000);
let env = await benchEnvironment("users");
const out: Record<string, string | number> = {
  "machine: cores, load average at start": `${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`,
};
const headers = { authorization: `Bearer ${env.key}`, "content-type": "application/json" };
const base = `${env.url}/api/client/projects/${env.projectId}`;
const run = randomUUID().slice(0, 8);
const fmt = (n: number) => n.toLocaleString("en");
const log = (m: string) => console.log(`[bench] ${m}`);
let sql = postgres(env.db.url, { max: 2, onnotice: () => {} });

/**
 * The cluster's WAL counters (pg_stat_wal: only the bench writes while a load runs). Full-page images are
 * pages first changed since the last checkpoint, and quiesce() checkpoints before every load, so they
 * count the old pages a load touches: a sequential key's index touches few, a key landing among older
 * keys (decimal ids and emails sort b220001 beside b22000) touches a new old page every few rows.
 */
async function walNow() {
  const [w] = await sql`select wal_bytes::float8 as bytes, wal_fpi::float8 as fpi from pg_stat_wal`;
  return w as unknown as { bytes: number; fpi: number };
}

/** The WAL written since `start` (a walNow() reading). */
async function walSince(start: { bytes: number; fpi: number }) {
  const now = await walNow();
  return { bytes: now.bytes - start.bytes, fpi: now.fpi - start.fpi };
}

/**
 * Between loads: a checkpoint, then wait (at most 60 s) until no autovacuum worker runs, so a load is not
 * measured while the database still writes out and vacuums what the load before it left.
 */
async function quiesce() {
  await sql`checkpoint`;
  const until = Date.now() + 60_000;
  while (
    Date.now() < until &&
    (await sql`select 1 from pg_stat_activity where backend_type = 'autovacuum worker'`).length
  )
    await new Promise((r) => setTimeout(r, 500));
}

try {
  const rounds: {
    events: number;
    users: number;
    unauthorized: number;
    created: number;
    eventCost: number;
    userCost: number;
    unauthorizedCost: number;
    createdCost: number;
    non2xx: number;
    wal: string;
  }[] = [];
  const perUnit = (w: { bytes: number; fpi: number }, units: number) =>
    `${Math.round(w.bytes / Math.max(units, 1))} B, ${(w.fpi / Math.max(units, 1)).toFixed(2)} FPI`;
  // Each pair (events and batch, 401 and new users) is measured side by side in every round, and the
  // ratios are the median over the rounds: on a shared two-core box one ten-second window of either side
  // can be off by a quarter (seen: the 401 floor at 690 and at 1,035 req/s an hour apart).
  // A freshly started server runs its routes' code cold: unwarmed, the first events load measured about
  // two thirds of the later ones. Each route gets a short unmeasured load first.
  log("warm-up: each route for 3 s");
  const warm = (url: string, body: () => string, connections: number, auth = true) =>
    load({
      url,
      method: "POST",
      headers: auth ? headers : { "content-type": "application/json" },
      connections,
      duration: 3,
      requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }],
    });
  await warm(`${base}/users/events`, eventsBody, 16);
  await warm(`${base}/users/batch`, () => newUsersBody(`${run}-w`), 4);
  await warm(`${base}/users`, () => "{}", 32, false);
  await warm(`${base}/users`, () => newUserBody(`${run}-w`), 32);
  await quiesce();
  for (let r = 1; r <= ROUNDS; r++) {
    log(`round ${r}/${ROUNDS}: events accepted, batches of 100, 16 connections`);
    const walEvents = await walNow();
    const events = await load({
      url: `${base}/users/events`,
      method: "POST",
      headers,
      connections: 16,
      duration: SECONDS,
      requests: [{ setupRequest: (req) => ({ ...req, body: eventsBody() }) }],
    });
    const eventWal = await walSince(walEvents);
    await quiesce();
    log(`round ${r}/${ROUNDS}: /users/batch, 1,000 new users per request, 4 connections`);
    const walBefore = await walNow();
    const batch = await load({
      url: `${base}/users/batch`,
      method: "POST",
      headers,
      connections: 4,
      duration: SECONDS,
      requests: [{ setupRequest: (req) => ({ ...req, body: newUsersBody(`${run}-b`) }) }],
    });
    const batchWal = await walSince(walBefore);
    await quiesce();
    log(`round ${r}/${ROUNDS}: the 401 floor: POST /users without a key, 32 connections`);
    const unauthorized = await load({
      url: `${base}/users`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
      connections: 32,
      duration: SECONDS,
    });
    await quiesce();
    log(`round ${r}/${ROUNDS}: POST /users, new users, 32 connections`);
    const created = await load({
      url: `${base}/users`,
      method: "POST",
      headers,
      connections: 32,
      duration: SECONDS,
      requests: [{ setupRequest: (req) => ({ ...req, body: newUserBody(run) }) }],
    });
    await quiesce();
    // Machine CPU per unit of work (µs), beside the rates: a rate depends on how busy the loads keep the
    // machine (4 connections of 1,000-user batches leave it about a seventh idle), a cost does not.
    const cost = (l: { busy: number; total: number }, unit: number) =>
      Math.round((l.busy / Math.max(l.total * unit, 1)) * 1e6 * 10) / 10;
    rounds.push({
      events: Math.round(events.rps * 100),
      users: Math.round(batch.rps * 1000),
      unauthorized: unauthorized.rps,
      created: created.rps,
      eventCost: cost(events, 100),
      userCost: cost(batch, 1000),
      unauthorizedCost: cost(unauthorized, 1),
      createdCost: cost(created, 1),
      non2xx: events.non2xx + batch.non2xx + created.non2xx,
      wal: `${perUnit(eventWal, events.total * 100)} vs ${perUnit(batchWal, batch.total * 1000)}`,
    });
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const list = (f: (r: (typeof rounds)[number]) => number | string) => rounds.map(f).join(" / ");
  out["events accepted/s (batches of 100), per round"] = list((r) => r.events);
  out["users upserted/s (/users/batch x1,000, 4 conn), per round"] = list((r) => r.users);
  out["  ratio users/events per round"] = list((r) => (r.users / r.events).toFixed(2));
  out["  ratio users/events, median (target >= 0.5)"] = median(rounds.map((r) => r.users / r.events)).toFixed(2);
  out["POST /users 401 answers/s, per round"] = list((r) => r.unauthorized);
  out["POST /users new users req/s, per round"] = list((r) => r.created);
  out["  ratio new-user/401 per round"] = list((r) => (r.created / r.unauthorized).toFixed(2));
  out["  ratio new-user/401, median (target >= 0.5)"] = median(rounds.map((r) => r.created / r.unauthorized)).toFixed(
    2,
  );
  out["  non-2xx (events + batch + created), per round"] = list((r) => r.non2xx);
  out["machine CPU µs per accepted event / per batched user, per round"] = list(
    (r) => `${r.eventCost} vs ${r.userCost}`,
  );
  out["WAL per accepted event / per batched user (bytes, full-page images), per round"] = list((r) => r.wal);
  out["  cost ratio event/user, median (0.5 = the batch target by cost)"] = median(
    rounds.map((r) => r.eventCost / r.userCost),
  ).toFixed(2);
  out["machine CPU µs per 401 / per new user's POST /users, per round"] = list(
    (r) => `${r.unauthorizedCost} vs ${r.createdCost}`,
  );
  out["  cost ratio 401/new user, median (0.5 = the POST /users target by cost)"] = median(
    rounds.map((r) => r.unauthorizedCost / r.createdCost),
  ).toFixed(2);

  // IMPORT_ROWS=0 measures only the loads above.
  if (IMPORT_ROWS > 0) {
    // The import is the first thing a new customer does: it runs against a fresh database and server, so
    // its time does not depend on how much the loads above left behind (three rounds leave about 400,000
    // users and 700,000 accepted events, which the worker would also be draining).
    await sql.end();
    await env.close();
    env = await benchEnvironment("users_import");
    sql = postgres(env.db.url, { max: 2, onnotice: () => {} });
    const worker = await startWorker(env.db.url);
    await quiesce();
    log(`import of ${fmt(IMPORT_ROWS)} users from CSV`);
    const dir = await mkdtemp(path.join(tmpdir(), "relay-bench-"));
    const file = path.join(dir, "users.csv");
    const lines = ["external_id,email,data.plan,data.seats"];
    for (let i = 0; i < IMPORT_ROWS; i++) lines.push(`imp-${i},u${i}@example.com,${i % 3 ? "pro" : "free"},${i % 50}`);
    await writeFile(file, lines.join("\n"));
    lines.length = 0;
    const peak = { web: 0, worker: 0 };
    const hwm = (pid?: number) => {
      try {
        return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
      } catch {
        return 0;
      }
    };
    const t0 = Date.now();
    const res = await fetch(`${env.url}/api/admin/projects/${env.projectId}/imports?kind=users`, {
      method: "POST",
      headers: { authorization: `Bearer ${env.key}`, "content-type": "text/csv" },
      body: Readable.toWeb(createReadStream(file)) as never,
      duplex: "half",
    } as RequestInit);
    const { id } = (await res.json()) as { id: string };
    const tUploaded = Date.now();
    await waitFor(
      async () => {
        const [r] = await sql`select state from imports where id = ${id}`;
        return r?.state === "done" || r?.state === "failed";
      },
      3_600_000,
      "the import",
    );
    const tDone = Date.now();
    peak.web = hwm(env.webPid);
    peak.worker = hwm(worker.child.pid);
    const [r] = await sql`select state, rows, processed, failed from imports where id = ${id}`;
    await worker.stop();
    await rm(dir, { recursive: true });
    out[`import ${fmt(IMPORT_ROWS)} users (fresh database): upload s`] = ((tUploaded - t0) / 1000).toFixed(1);
    out[`import ${fmt(IMPORT_ROWS)} users: total s (target < 120)`] = ((tDone - t0) / 1000).toFixed(1);
    out["  import rows/s"] = Math.round(IMPORT_ROWS / ((tDone - t0) / 1000));
    out["  import state, processed, failed"] = `${r!.state}, ${r!.processed}, ${r!.failed}`;
    out["  peak RSS web / worker MiB"] = `${Math.round(peak.web / 2 ** 20)} / ${Math.round(peak.worker / 2 ** 20)}`;
  }
} finally {
  out["load average at end"] = loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");
  console.log("\n=== users bench");
  for (const [k, v] of Object.entries(out)) console.log(`${k.padEnd(56)} ${v}`);
  await sql.end();
  await env.close();
}
