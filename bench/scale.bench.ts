/**
 * `npm run bench -- scale`: 1 web + 1 worker against 2 webs + 2 workers on one fresh database, the same
 * processes an operator runs (`start:web`, `worker`). Prints, per setup:
 *   - events/s accepted over HTTP (batches of 100 through every web, BENCH_SECONDS) and recorded (from the
 *     first request until the intake is empty);
 *   - schedule firings/s: BENCH_FIRINGS firings due at one instant, 1 worker against 2;
 *   - where the time goes: CPU seconds of the web processes, the workers and their PostgreSQL backends
 *     over each phase (from /proc), beside the wall time.
 * Writes bench/results/scale.json. Figures, not pass/fail.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import autocannon from "autocannon";
import postgres from "postgres";
import { createTestDatabase } from "../scripts/test/database";
import { startCluster, stopLaunched, type Cluster } from "../test/scale/cluster";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const FIRINGS = Number(process.env.BENCH_FIRINGS ?? 50_000);
const USERS = 1000;
const log = (msg: string) => console.log(`[bench] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const db = await createTestDatabase("relay_bench_scale");
process.env.DATABASE_URL = db.url;
// A busy machine can take seconds to accept a connection: wait rather than fail the run.
process.env.DATABASE_CONNECT_TIMEOUT ??= "15";
const sql = postgres(db.url, { max: 4, onnotice: () => {}, connect_timeout: 15 });
const results: Record<string, unknown> = {
  machine: `${cpus().length} cores`,
  loadavgAtStart: loadavg()
    .map((l) => l.toFixed(1))
    .join(" "),
};

/** Clock ticks of user + system CPU of every process in these process groups (a web's next-server included). */
function groupTicks(pgids: number[]): number {
  const want = new Set(pgids);
  let ticks = 0;
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const f = readFileSync(`/proc/${d}/stat`, "utf8");
      const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
      if (want.has(Number(rest[2]))) ticks += Number(rest[11]) + Number(rest[12]);
    } catch {}
  }
  return ticks;
}

function pidTicks(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8");
      const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
      ticks += Number(rest[11]) + Number(rest[12]);
    } catch {}
  }
  return ticks;
}

/** CPU seconds spent by the webs, the workers and this database's backends between `start()` and `stop()`. */
async function cpuMeter(cluster: Cluster) {
  const backends = async () =>
    (await sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`).map(
      (r) => r.pid as number,
    );
  const webs = cluster.webs.map((p) => p.child.pid!);
  const workers = cluster.workers.map((p) => p.child.pid!);
  // Backends come and go with the pools: sample their ticks often and keep each one's last reading.
  const last = new Map<number, number>();
  const first = new Map<number, number>();
  const sample = async () => {
    const pids = await backends();
    for (const pid of pids) {
      const t = pidTicks([pid]);
      if (!first.has(pid)) first.set(pid, t);
      last.set(pid, t);
    }
  };
  await sample();
  const w0 = groupTicks(webs);
  const k0 = groupTicks(workers);
  const t0 = Date.now();
  let running = true;
  const sampler = (async () => {
    while (running) {
      await sample().catch(() => {});
      await sleep(250);
    }
  })();
  return async () => {
    running = false;
    await sampler;
    await sample();
    let db = 0;
    for (const [pid, t] of last) db += t - (first.get(pid) ?? t);
    const hz = 100;
    return {
      wallSeconds: (Date.now() - t0) / 1000,
      webCpu: (groupTicks(webs) - w0) / hz,
      workerCpu: (groupTicks(workers) - k0) / hz,
      databaseCpu: db / hz,
    };
  };
}

async function project(name: string) {
  const { getDb } = await import("../db/client");
  const { ensureSchedule } = await import("../lib/schedules/definitions");
  const { systemContext } = await import("../lib/access/context");
  const { benchProject } = await import("./harness");
  const { projectId, key } = await benchProject(name, "client");
  const schedule = await ensureSchedule(systemContext(getDb(), projectId), { name: "bench", type: "single" });
  await sql`insert into users (project_id) select ${projectId} from generate_series(1, ${USERS})`;
  await sql`insert into user_identifiers (project_id, source, external_id, user_id)
    select ${projectId}, 'default', 'bench-' || row_number() over (order by id), id from users where project_id = ${projectId}`;
  return { projectId, key, scheduleId: schedule.id };
}

async function intakeEmpty(projectId: string) {
  const [r] = await sql`select not exists (select 1 from event_intake where project_id = ${projectId}) as empty`;
  return r!.empty as boolean;
}

async function events(cluster: Cluster, p: Awaited<ReturnType<typeof project>>) {
  const body = JSON.stringify(
    Array.from({ length: 100 }, (_, i) => ({
      name: "Viewed",
      identifier: [{ external_id: `bench-${((i * 7) % USERS) + 1}` }],
      data: { page: "/pricing", amount: i },
    })),
  );
  const headers = { authorization: `Bearer ${p.key}`, "content-type": "application/json" };
  const path = `/api/client/projects/${p.projectId}/users/events`;
  // Warm each web's route, then load every web at once, 8 connections each.
  for (const w of cluster.webs) await fetch(w.url + path, { method: "POST", headers, body });
  while (!(await intakeEmpty(p.projectId))) await sleep(100);
  const meter = await cpuMeter(cluster);
  const t0 = Date.now();
  const runs = await Promise.all(
    cluster.webs.map((w) =>
      autocannon({ url: w.url + path, method: "POST", headers, body, connections: 8, duration: SECONDS }),
    ),
  );
  const acceptedSeconds = (Date.now() - t0) / 1000;
  const accepted = runs.reduce((n, r) => n + r["2xx"] * 100, 0);
  const refused = runs.reduce((n, r) => n + r.non2xx + r.errors, 0);
  while (!(await intakeEmpty(p.projectId))) await sleep(50);
  const recordedSeconds = (Date.now() - t0) / 1000;
  const cpu = await meter();
  return {
    acceptedPerSecond: Math.round(accepted / acceptedSeconds),
    recordedPerSecond: Math.round(accepted / recordedSeconds),
    accepted,
    refusedOrFailed: refused,
    p99ms: Math.max(...runs.map((r) => r.latency.p99)),
    backlogDrainedAfterLoadSeconds: +(recordedSeconds - acceptedSeconds).toFixed(1),
    cpu,
  };
}

async function firings(cluster: Cluster, p: Awaited<ReturnType<typeof project>>) {
  await sql`
    with u as (insert into users (project_id) select ${p.projectId} from generate_series(1, ${FIRINGS}) returning project_id, id),
    a as (insert into schedule_assignments (project_id, schedule_id, user_id, anchor, occurrence_at, data)
          select u.project_id, ${p.scheduleId}, u.id, '2999-01-01', '2999-01-01', '{}' from u returning project_id, id, schedule_id)
    insert into schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at)
    select a.project_id, a.id, o.id, 0, '2999-01-01' from a join schedule_offsets o on o.project_id = a.project_id and o.schedule_id = a.schedule_id`;
  await sql`analyze users, schedule_assignments, schedule_firings`;
  const due = new Date(Date.now() + 1000);
  await sql`update schedule_firings set fire_at = ${due.toISOString()} where project_id = ${p.projectId} and state = 'pending'`;
  await sleep(due.getTime() - Date.now());
  const meter = await cpuMeter(cluster);
  for (;;) {
    const [r] =
      await sql`select exists (select 1 from schedule_firings where project_id = ${p.projectId} and state = 'pending') as left`;
    if (!r!.left) break;
    await sleep(50);
  }
  const cpu = await meter();
  const [r] =
    await sql`select count(*)::int as n, extract(epoch from max(fired_at) - ${due.toISOString()}::timestamptz)::float8 as last
    from schedule_firings where project_id = ${p.projectId} and state = 'fired'`;
  return {
    firings: r!.n,
    allFiredAfterSeconds: +r!.last.toFixed(2),
    firingsPerSecond: Math.round(r!.n / r!.last),
    cpu,
  };
}

const setups = [
  { name: "1 web + 1 worker", webs: 1, workers: 1 },
  { name: "2 webs + 2 workers", webs: 2, workers: 2 },
];
try {
  for (const s of setups) {
    log(`${s.name}: starting`);
    const cluster = await startCluster(db.url, {
      webs: s.webs,
      workers: s.workers,
      env: {
        DATABASE_POOL_SIZE: "10",
        DATABASE_CONNECT_TIMEOUT: process.env.DATABASE_CONNECT_TIMEOUT!,
        LOG_LEVEL: "warn",
      },
    });
    try {
      const p = await project(s.name.replace(/\W+/g, "-"));
      log(`${s.name}: events, ${SECONDS} s of batches of 100 through ${s.webs} web(s)`);
      const e = await events(cluster, p);
      log(`${s.name}: ${FIRINGS.toLocaleString("en")} firings due at once, ${s.workers} worker(s)`);
      const f = await firings(cluster, p);
      results[s.name] = {
        events: e,
        firings: f,
        loadavgAfter: loadavg()
          .map((l) => l.toFixed(1))
          .join(" "),
      };
      console.log(JSON.stringify({ [s.name]: results[s.name] }, null, 2));
    } finally {
      await cluster.stop();
    }
  }
  const [one, two] = setups.map(
    (s) =>
      results[s.name] as {
        events: { acceptedPerSecond: number; recordedPerSecond: number };
        firings: { firingsPerSecond: number };
      },
  );
  const ratio = (a: number, b: number) => +(b / a).toFixed(2);
  results.ratios = {
    "accepted events/s, 2+2 over 1+1": ratio(one!.events.acceptedPerSecond, two!.events.acceptedPerSecond),
    "recorded events/s, 2+2 over 1+1": ratio(one!.events.recordedPerSecond, two!.events.recordedPerSecond),
    "firings/s, 2 workers over 1": ratio(one!.firings.firingsPerSecond, two!.firings.firingsPerSecond),
  };
  console.log(
    JSON.stringify(
      {
        ratios: results.ratios,
        loadavgAtStart: results.loadavgAtStart,
        loadavgAtEnd: loadavg()
          .map((l) => l.toFixed(1))
          .join(" "),
      },
      null,
      2,
    ),
  );
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/scale.json", JSON.stringify(results, null, 2));
} finally {
  await stopLaunched();
  const { closeDatabase } = await import("../db/client");
  await closeDatabase();
  await sql.end();
  await db.drop();
}
