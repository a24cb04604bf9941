import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import autocannon from "autocannon";
import postgres from "postgres";
import { createApiKey } from "../../lib/access/api-keys";
import { createProjectWithOwner } from "../../lib/projects/create-project";
import { closeDatabase, getDb } from "../../db/client";
import { createTestDatabase } from "../../scripts/test/database";
import { freePort } from "../../scripts/test/next-server";
import { eventsBody, newUserBody, newUsersBody } from "../bodies";
import { busySeconds, processSeconds } from "../harness";

/**
 * CPU profile of the built web process under one load: `npx tsx bench/tools/profile-route.ts <401|create|batch|events> [dir]`
 * writes a .cpuprofile (node --cpu-prof) into dir (default /tmp/relay-profile) and prints req/s.
 * 401: POST /users without a key; create: POST /users creating users with a key; batch: POST
 * /users/batch of 1,000 new users, 4 connections (CONNECTIONS sets another count, here and for create); events: POST /users/events in
 * batches of 100, 16 connections (as the users bench). PROFILE=0 runs without
 * the profiler (to read req/s undisturbed).
 *
 * AMOUNT=n sends a fixed n requests instead of a timed load (requests, not units: for batch, n batches of
 * 1,000 users; for events, n posts of 100 events) and prints the whole machine's busy CPU per unit (per
 * user, event or request: every process, the load generator and PostgreSQL included, read from
 * /proc/stat). On a saturated machine throughput is the inverse of that cost, and it is steadier than
 * req/s, so two builds can be compared by it a few percent apart. PREP_SQL runs on the fresh database
 * before the server starts (to measure a schema change, say, before writing its migration). INDEX_STATS=1
 * prints, after the load, the indexes that read the most entries and entries per scan: a key probe reads
 * about one, so hundreds per scan is a plan scanning what it meant to probe. The server takes
 * DATABASE_POOL_SIZE from the environment (unset: the product's default, db/client.ts `poolSize`).
 */
const mode = process.argv[2] ?? "401";
const dir = process.argv[3] ?? "/tmp/relay-profile";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
mkdirSync(dir, { recursive: true });
const db = await createTestDatabase("relay_profile");
process.env.DATABASE_URL = db.url;
const { project } = await createProjectWithOwner(
  { db: getDb() },
  { orgName: "p", projectName: "p", ownerEmail: "p@example.com" },
);
const { secret } = await createApiKey(
  { db: getDb() },
  { projectId: project.id, name: "p", role: "admin", rateLimitPerSecond: 10_000_000, rateLimitBurst: 10_000_000 },
);
if (process.env.PREP_SQL) {
  const admin = postgres(db.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(process.env.PREP_SQL);
  await admin.end();
}
const port = await freePort();
const prof = process.env.PROFILE === "0" ? [] : ["--cpu-prof", `--cpu-prof-dir=${dir}`];
const child = spawn(
  process.execPath,
  [...prof, "node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
  {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: db.url,
      AUTH_SECRET: "x",
      AUTH_TRUST_HOST: "true",
      AUTH_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ["ignore", "ignore", "inherit"],
  },
);
const url = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${url}/api/openapi.json`)).ok) break;
  } catch {}
  if (i > 400) throw new Error("server did not start");
  await new Promise((r) => setTimeout(r, 200));
}
const target = `${url}/api/client/projects/${project.id}/users`;
const opts: autocannon.Options =
  mode === "batch"
    ? {
        url: `${target}/batch`,
        method: "POST",
        connections: Number(process.env.CONNECTIONS ?? 4),
        duration: seconds,
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        requests: [{ setupRequest: (req) => ({ ...req, body: newUsersBody("pb") }) }],
      }
    : mode === "events"
      ? {
          url: `${target}/events`,
          method: "POST",
          connections: 16,
          duration: seconds,
          headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
          requests: [{ setupRequest: (req) => ({ ...req, body: eventsBody() }) }],
        }
      : mode === "401"
        ? {
            url: target,
            method: "POST",
            headers: { "content-type": "application/json" },
            body: "{}",
            connections: 32,
            duration: seconds,
          }
        : {
            url: target,
            method: "POST",
            connections: Number(process.env.CONNECTIONS ?? 32),
            duration: seconds,
            headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
            requests: [{ setupRequest: (req) => ({ ...req, body: newUserBody("p") }) }],
          };
await autocannon({ ...opts, duration: 2 }); // warm-up
const amount = Number(process.env.AMOUNT ?? 0);
const groups = { web: child.pid!, postgres: "postgres", "load generator": process.pid };
const walStats = async () => {
  const c = postgres(db.url, { max: 1, onnotice: () => {} });
  const [w] =
    await c`select wal_records::float8 as records, wal_fpi::float8 as fpi, wal_bytes::float8 as bytes from pg_stat_wal`;
  await c.end();
  return w as unknown as { records: number; fpi: number; bytes: number };
};
const walBefore = amount ? await walStats() : undefined;
const before = busySeconds();
const procBefore = processSeconds(groups);
const { duration: _timed, ...untimed } = opts;
const r = await autocannon(amount ? { ...untimed, amount } : opts);
const busy = busySeconds() - before;
const procAfter = processSeconds(groups);
const codes = Object.entries(r.statusCodeStats ?? {})
  .map(([c, s]) => `${c}:${(s as { count: number }).count}`)
  .join(" ");
const elapsed = amount ? r.duration : seconds;
console.log(
  `${mode}: ${(r.requests.total / elapsed).toFixed(1)} req/s, p50 ${r.latency.p50} ms, mean ${r.latency.mean} ms, codes ${codes}`,
);
if (amount) {
  const unit = mode === "batch" ? 1000 : mode === "events" ? 100 : 1;
  const per = (s: number) => ((s / (r.requests.total * unit)) * 1e6).toFixed(1);
  const parts = Object.keys(groups).map((k) => `${k} ${per(procAfter[k]! - procBefore[k]!)}`);
  const rest = busy - Object.keys(groups).reduce((s, k) => s + procAfter[k]! - procBefore[k]!, 0);
  // WAL per unit, cluster-wide (pg_stat_wal): full-page images are the pages first changed since the
  // last checkpoint, so their share says how much of the WAL is the checkpoint's and not the rows'.
  const walAfter = await walStats();
  const units = r.requests.total * unit;
  const w = (k: "records" | "fpi" | "bytes") => ((walAfter[k] - walBefore![k]) / units).toFixed(2);
  console.log(
    `${mode}: WAL per ${unit === 1 ? "request" : mode === "batch" ? "user" : "event"}: ${w("bytes")} bytes, ${w("records")} records, ${w("fpi")} full-page images`,
  );
  console.log(
    `${mode}: busy CPU ${per(busy)} µs per ${unit === 1 ? "request" : mode === "batch" ? "user" : "event"} (${parts.join(", ")}, rest ${per(rest)}; ${r.requests.total} requests, ${busy.toFixed(1)} CPU-s)`,
  );
}
if (process.env.INDEX_STATS) {
  // Index scans that read many entries each are plans gone wrong (a prefix scan where a key probe was meant).
  // Entries a scan steps over without returning them (a key the index cannot seek by) show only as pages:
  // pages_per_scan counts insertions' pages too, but a probe or an insertion is a few pages, not dozens.
  const stats = postgres(db.url, { max: 1, onnotice: () => {} });
  const rows = await stats`
    select s.relname, s.indexrelname, s.idx_scan, s.idx_tup_read, round(s.idx_tup_read::numeric / nullif(s.idx_scan, 0), 1) as per_scan,
      round(io.idx_blks_hit::numeric / nullif(s.idx_scan, 0), 1) as pages_per_scan
    from pg_stat_user_indexes s join pg_statio_user_indexes io using (indexrelid)
    where s.idx_scan > 0 order by greatest(s.idx_tup_read, io.idx_blks_hit) desc limit 10`;
  console.table(rows.map((r) => ({ ...r })));
  const seq =
    await stats`select relname, seq_scan, seq_tup_read from pg_stat_user_tables where seq_tup_read > 1000 order by seq_tup_read desc limit 5`;
  if (seq.length) console.table(seq.map((r) => ({ ...r })));
  await stats.end();
}
child.kill("SIGTERM");
await new Promise((r) => child.once("exit", r));
await closeDatabase();
await db.drop();
