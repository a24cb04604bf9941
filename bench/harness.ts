import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";
import { createApiKey } from "../lib/access/api-keys";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { closeDatabase, getDb, getSql } from "../db/client";
import { createTestDatabase } from "../scripts/test/database";
import { startNextServer } from "../scripts/test/next-server";

/** A project in DATABASE_URL's database with an unthrottled API key of `role`. */
export async function benchProject(
  name: string,
  role: "admin" | "client",
): Promise<{ projectId: string; key: string }> {
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "bench", projectName: name, ownerEmail: "bench@example.com" },
  );
  const { secret } = await createApiKey(
    { db: getDb() },
    { projectId: project.id, name: "bench", role, rateLimitPerSecond: 10_000_000, rateLimitBurst: 10_000_000 },
  );
  return { projectId: project.id, key: secret };
}

/** A fresh, migrated database named `name`, made this process's DATABASE_URL, and its SQL client. */
export async function benchDatabase(name: string) {
  const db = await createTestDatabase(name);
  process.env.DATABASE_URL = db.url;
  return { db, sql: getSql() };
}

/** A fresh database, the built app on a free port, and a project with an unthrottled admin key. */
export async function benchEnvironment(name: string) {
  const { db } = await benchDatabase(`relay_bench_${name}`);
  const server = await startNextServer({ DATABASE_URL: db.url });
  const { projectId, key } = await benchProject(name, "admin");
  return {
    url: server.url,
    /** The web process, for memory readings (/proc/<pid>/status). */
    webPid: server.child.pid,
    projectId,
    key,
    db,
    async close() {
      await server.stop();
      await closeDatabase();
      await db.drop();
    },
  };
}

export async function load(opts: autocannon.Options) {
  const before = busySeconds();
  // autocannon ends a load of `amount` requests only at its next sample tick (a second by default): a
  // load of 4.1 s read as 5 s. Ticks of 50 ms bound that to 1 % of the shortest loads the benches run.
  const result = await autocannon({ connections: 50, duration: 10, sampleInt: 50, ...opts });
  const busy = busySeconds() - before;
  return {
    /** The whole machine's busy CPU seconds during the load (every process: server, database, load generator). */
    busy,
    // Requests over the measured seconds, to a tenth: the per-second average rounded to a whole request
    // hid up to 6 % of a load of 1,000-user batches (8.4/s printed as 8).
    rps: Math.round((result.requests.total / Math.max(result.duration, 0.001)) * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}

/**
 * `load` of `POST /api/client/users/events` with `body()` made anew per request: the intake baseline
 * several benches measure their path against. `shape` is the run's length (`duration` or `amount`) and
 * any other autocannon setting.
 */
export function postEvents(
  env: { url: string; key: string },
  body: () => string,
  shape: Omit<autocannon.Options, "url">,
) {
  return load({
    url: `${env.url}/api/client/users/events`,
    method: "POST",
    headers: { authorization: `Bearer ${env.key}`, "content-type": "application/json" },
    requests: [{ setupRequest: (r) => ({ ...r, body: body() }) }],
    ...shape,
  });
}

const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));

/**
 * The whole machine's busy CPU seconds so far, all CPUs: user, nice, system, irq and softirq from
 * /proc/stat (guest time is inside user; idle, iowait and steal are not work done here). Over a load on a
 * saturated machine, busy seconds per unit of work is the inverse of throughput, and steadier than it.
 */
export function busySeconds(): number {
  const [user, nice, system, , , irq, softirq] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user! + nice! + system! + irq! + softirq!) / TICKS_PER_SECOND;
}

/**
 * CPU seconds used so far by processes grouped by name (utime + stime from /proc/<pid>/stat, which
 * includes a process's threads): `{ web: pid, postgres: "postgres" }` sums the process `pid` and every
 * process named `postgres`. A process that exits during a load takes its seconds with it, so measure
 * over loads whose processes live throughout (a server and its pooled database connections do).
 */
export function processSeconds(groups: Record<string, number | string>): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(Object.keys(groups).map((k) => [k, 0]));
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // The name is in parentheses and may hold spaces; the fields after it are fixed.
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cpu = (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
    for (const [k, g] of Object.entries(groups)) if (g === Number(pid) || g === name) out[k]! += cpu;
  }
  return out;
}

/**
 * CPU seconds used so far by this database's backends alive now (a pool keeps its connections, so
 * readings taken before and after some work give that work's PostgreSQL CPU), from /proc.
 */
export async function backendSeconds(): Promise<number> {
  const pids = await getSql()<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()`;
  const seconds = processSeconds(Object.fromEntries(pids.map(({ pid }) => [String(pid), pid])));
  return Object.values(seconds).reduce((a, b) => a + b, 0);
}
