import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
/**
 * The event pipeline's figures on this machine (not a test): `npm run bench -- pipeline` (bench/run.ts
 * builds the app first when needed).
 * A fresh database on DATABASE_URL's server (default: the machine's PostgreSQL), the built app under
 * `next start` on loopback, the real worker, autocannon for HTTP load. Prints a table and writes
 * bench/results/pipeline.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import autocannon from "autocannon";
import postgres from "postgres";
import { createTestDatabase } from "../scripts/test/database";
import { startNextServer } from "../scripts/test/next-server";
import { startWorker, waitFor } from "../scripts/test/worker";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const FANOUT_USERS = 100_000;

const db = await createTestDatabase("relay_bench");
process.env.DATABASE_URL = db.url;
const sql = postgres(db.url, { max: 4, onnotice: () => {} });
const results: Record<string, number | string> = {};
results["machine: cores, load average at start"] = `${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`;
const log = (msg: string) => console.log(`[bench] ${msg}`);
let server: Awaited<ReturnType<typeof startNextServer>> | undefined;
let worker: Awaited<ReturnType<typeof startWorker>> | undefined;

try {
  const { closeDatabase } = await import("../db/client");
  const { benchProject } = await import("./harness");
  const { projectId: p, key } = await benchProject("bench", "client");
  await closeDatabase();

  log(`seeding ${FANOUT_USERS.toLocaleString()} users`);
  await sql`insert into users (project_id, data) select ${p}, jsonb_build_object('cohort', 'bench', 'i', g) from generate_series(1, ${FANOUT_USERS}) g`;
  await sql`insert into user_identifiers (project_id, source, external_id, user_id)
    select ${p}, 'default', 'bench-' || row_number() over (order by id), id from (select id from users where project_id = ${p} order by id limit 1000) u`;
  // Bench-only column: when the worker recorded each row, for the acceptance-to-recorded lag.
  await sql`alter table events add column bench_recorded_at timestamptz default clock_timestamp()`;
  await sql`vacuum analyze`;

  server = await startNextServer({ DATABASE_URL: db.url });
  const url = `${server.url}/api/client/projects/${p}/users/events`;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const events = (n: number, name: string) =>
    JSON.stringify(
      Array.from({ length: n }, (_, i) => ({
        name,
        identifier: [{ external_id: `bench-${((i * 7) % 1000) + 1}` }],
        data: { plan: "pro", amount: i, tags: ["a"], address: { city: "Paris" } },
      })),
    );
  const cannon = async (batch: number, name: string, opts: Partial<autocannon.Options> = {}) => {
    const r = await autocannon({
      url,
      method: "POST",
      headers,
      body: events(batch, name),
      connections: 16,
      duration: SECONDS,
      ...opts,
    });
    const ok = r["2xx"];
    if (r.non2xx || r.errors) log(`  ${r.non2xx} non-2xx, ${r.errors} errors`);
    return { eventsPerSecond: Math.round((ok * batch) / (r.duration || SECONDS)), p99ms: r.latency.p99, ok };
  };
  await cannon(100, "Warmup", { duration: 2 });

  log("HTTP acceptance, batches of 100 (no worker running)");
  const a100 = await cannon(100, "Accepted100");
  results["accepted events/s, batches of 100"] = a100.eventsPerSecond;
  results["  request p99 ms (batches of 100)"] = a100.p99ms;
  log("HTTP acceptance, batches of 1");
  const a1 = await cannon(1, "Accepted1");
  results["accepted events/s, batches of 1"] = a1.eventsPerSecond;
  results["  request p99 ms (batches of 1)"] = a1.p99ms;

  // Top the backlog up to PIPELINE_EVENTS (same shape as the accepted ones) so the timing is not a blip.
  const [{ have }] = await sql`select count(*)::int as have from event_intake`;
  const want = Number(process.env.PIPELINE_EVENTS ?? 200_000);
  if (have < want) {
    await sql`insert into event_intake (project_id, kind, name, identifier, data)
      select ${p}, 'user', 'Accepted100', jsonb_build_array(jsonb_build_object('source', 'default', 'external_id', 'bench-' || (g % 1000 + 1))),
        jsonb_build_object('plan', 'pro', 'amount', g % 100, 'tags', jsonb_build_array('a'), 'address', jsonb_build_object('city', 'Paris'))
      from generate_series(1, ${want - have}) g`;
    await sql`vacuum analyze event_intake`;
  }
  const [{ backlog }] = await sql`select count(*)::int as backlog from event_intake`;
  log(`pipeline: draining a backlog of ${backlog.toLocaleString()} events with the real worker`);
  const t0 = Date.now();
  worker = await startWorker(db.url);
  const tReady = Date.now();
  await waitFor(async () => (await sql`select 1 from event_intake limit 1`).length === 0, 600_000, "intake drained");
  const tRecorded = Date.now();
  const total = backlog as number;
  await waitFor(
    async () => {
      const [{ n }] =
        await sql`select coalesce(sum(count), 0)::int as n from event_schema where project_id = ${p} and path = '' and event_name in ('Warmup', 'Accepted100', 'Accepted1')`;
      const [{ q }] =
        await sql`select count(*)::int as q from pgboss.job where name like 'pipeline.%' and state in ('created', 'retry', 'active')`;
      return n >= total && q === 0;
    },
    600_000,
    "steps 2-4 done",
  );
  const tDone = Date.now();
  results["pipeline events/s, recorded (step 1)"] = Math.round(total / ((tRecorded - tReady) / 1000));
  results["pipeline events/s, whole pipeline (steps 1-4)"] = Math.round(total / ((tDone - tReady) / 1000));
  log(
    `  worker start ${(tReady - t0) / 1000}s, recorded ${(tRecorded - tReady) / 1000}s, all steps ${(tDone - tReady) / 1000}s`,
  );

  log(
    "floor: the same rows straight into events with COPY (the fastest way PostgreSQL takes rows; best of 1, 2 and 4 connections)",
  );
  const rows =
    await sql`select name, user_id, data from events where project_id = ${p} and name in ('Accepted100', 'Accepted1') limit ${Math.min(total, 100_000)}`;
  const chunks: (typeof rows)[] = [];
  for (let i = 0; i < rows.length; i += 1000) chunks.push(rows.slice(i, i + 1000) as never);
  // COPY text format: tab-separated, backslash escaped (JSON carries no raw tabs or newlines, only backslashes).
  const copyLine = (r: (typeof rows)[number]) =>
    `${p}\tFloor\t${r.user_id ?? "\\N"}\t${JSON.stringify(r.data).replace(/\\/g, "\\\\")}\tclient\n`;
  const writer = async (mine: (typeof rows)[]) => {
    for (const c of mine) {
      await pipeline(
        Readable.from([c.map(copyLine).join("")]),
        await sql`copy events (project_id, name, user_id, data, origin) from stdin`.writable(),
      );
    }
  };
  const floors: number[] = [];
  for (const conns of [1, 2, 4]) {
    const tf = Date.now();
    await Promise.all(Array.from({ length: conns }, (_, k) => writer(chunks.filter((_, i) => i % conns === k))));
    floors.push(Math.round(rows.length / ((Date.now() - tf) / 1000)));
  }
  const floor = Math.max(...floors);
  log(`  floor by connections 1/2/4: ${floors.join(" / ")} events/s`);
  results["floor events/s (COPY)"] = floor;
  results["whole pipeline / floor"] =
    `${Math.round((100 * (results["pipeline events/s, whole pipeline (steps 1-4)"] as number)) / floor)}%`;
  results["recorded (step 1) / floor"] =
    `${Math.round((100 * (results["pipeline events/s, recorded (step 1)"] as number)) / floor)}%`;

  log("lag at a steady 1,000 events/s (100 requests/s of 10 events) with the worker running");
  const steady = await cannon(10, "Steady", { overallRate: 100, connections: 10, duration: 15 });
  await waitFor(async () => (await sql`select 1 from event_intake limit 1`).length === 0, 120_000, "steady drained");
  const [lag] = await sql`
    select count(*)::int as n,
      percentile_cont(0.5) within group (order by extract(epoch from bench_recorded_at - received_at)) * 1000 as p50,
      percentile_cont(0.99) within group (order by extract(epoch from bench_recorded_at - received_at)) * 1000 as p99
    from events where project_id = ${p} and name = 'Steady'`;
  results["steady rate achieved, events/s"] = steady.eventsPerSecond;
  results["lag p50 ms"] = Math.round(lag!.p50);
  results["lag p99 ms"] = Math.round(lag!.p99);

  log(`fan-out: one match event to ${FANOUT_USERS.toLocaleString()} users`);
  const tm = Date.now();
  const res = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify([{ name: "Fanout", match: { cohort: "bench" }, data: { promo: "x" } }]),
  });
  if (res.status !== 202) throw new Error(`fan-out request: ${res.status}`);
  await waitFor(
    async () => {
      const [{ n }] =
        await sql`select delivered as n from event_fanouts where project_id = ${p} and finished_at is not null`.then(
          (r) => (r.length ? r : [{ n: 0 }]),
        );
      return n >= FANOUT_USERS;
    },
    300_000,
    "fan-out recorded",
  );
  results["fan-out to 100,000 users, seconds to record"] = Number(((Date.now() - tm) / 1000).toFixed(1));
  const [{ fanned }] =
    await sql`select count(*)::int as fanned from events where project_id = ${p} and name = 'Fanout'`;
  results["  fan-out events recorded"] = fanned;
  results["load average at end"] = loadavg()[0]!.toFixed(1);
} finally {
  await worker?.stop();
  await server?.stop();
  await sql.end({ timeout: 2 });
  await db.drop();
}

console.log("\n| measure | value |\n|---|---|");
for (const [k, v] of Object.entries(results))
  console.log(`| ${k} | ${typeof v === "number" ? v.toLocaleString("en-US") : v} |`);
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/pipeline.json", JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
process.exit(0);
