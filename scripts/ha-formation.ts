import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import postgres from "postgres";

/**
 * A pg_auto_failover formation on loopback ports: a monitor, a primary and a synchronous standby, each
 * `pg_autoctl ... --run` in a process group of its own (so killing a node takes its keeper and its
 * PostgreSQL together, as losing its machine would). For `npm run ha:dev` and test/scale/failover.test.ts;
 * docs/scaling.md says how to run the same on real machines.
 */

export interface FormationOptions {
  /** Where the nodes keep their data; created (and owned by `postgres` when we run as root). */
  dir: string;
  /** The monitor listens on basePort, the nodes on basePort + 1 and + 2. */
  basePort: number;
  /** Monitor settings (pgautofailover.*, in ms) applied before the nodes register. */
  monitorSettings?: Record<string, number>;
  /** Resolve once the first node takes writes, before its standby has caught up (then call `healthy()`). */
  primaryOnly?: boolean;
  /** Each line the nodes log, prefixed with the node's name (default: kept in memory only). */
  onLog?: (line: string) => void;
  /**
   * Where `dir` was made (`/tmp/relay-failover-`, the mkdtemp prefix): formations under that prefix whose
   * owner is gone (a run killed before its clean-up) are stopped and removed first (clearStaleFormations).
   */
  stalePrefix?: string;
}

export interface FormationNode {
  name: string;
  port: number;
  pgdata: string;
  /** Whether its keeper (and so its PostgreSQL) runs. */
  running(): boolean;
}

export interface NodeState {
  name: string;
  port: number;
  reported: string;
  goal: string;
}

/**
 * Monitor settings for a formation on one machine (tests, `npm run ha:dev`): a lost primary is declared
 * unhealthy after 4 s without a report (default 20 s) and the standby promoted 4 s later (default 30 s),
 * health checks every second (default 5 s). A primary's machine lost costs about 9 s of writes here
 * instead of 52 s; on real networks keep margins wider (docs/scaling.md).
 */
export const FAST_FAILOVER_SETTINGS = {
  node_considered_unhealthy_timeout: 4000,
  primary_demote_timeout: 4000,
  health_check_period: 1000,
};

const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export function pgAutoctlInstalled(): boolean {
  try {
    execFileSync("pg_autoctl", ["--version"], { stdio: "ignore" });
    return existsSync(path.join(PG_BIN, "pg_ctl"));
  } catch {
    return false;
  }
}

/** PostgreSQL refuses to run as root: as root, every pg_autoctl runs as `postgres` (runuser). */
function asPostgres(args: string[], env: Record<string, string>): [string, string[]] {
  const withEnv = ["env", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), "pg_autoctl", ...args];
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", ...withEnv]] : [withEnv[0]!, withEnv.slice(1)];
}

/** The file in a formation's directory naming the process that started it (and stops it). */
const OWNER_FILE = "owner.pid";

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What a process was started with and in: its command line and environment (empty when it is gone or not ours to read). */
function processText(pid: string): string {
  const read = (f: string) => {
    try {
      return readFileSync(`/proc/${pid}/${f}`, "latin1");
    } catch {
      return "";
    }
  };
  return `${read("cmdline")}\0${read("environ")}`;
}

/**
 * Stops and removes the formations a killed run left under `prefix` (its data directories
 * `<prefix>XXXXXX`): their keepers and PostgreSQL would hold the ports, and the next run's monitor or first
 * node would never come up. A formation is stale when the process named in its owner file is gone (or it
 * has none, as before owner files); `keep` (the directory about to be used) is spared. Only processes whose command line or environment names such a
 * directory are killed (every pg_autoctl and postgres of a formation carries its XDG_* folders in its
 * environment), so no other PostgreSQL on the machine is touched. Linux only (/proc); elsewhere a no-op.
 */
export async function clearStaleFormations(prefix: string, keep?: string): Promise<string[]> {
  if (!existsSync("/proc")) return [];
  const parent = path.dirname(prefix);
  const base = path.basename(prefix);
  const stale = readdirSync(parent)
    .filter((name) => name.startsWith(base))
    .map((name) => path.join(parent, name))
    .filter((dir) => dir !== keep && !dir.startsWith(`${keep}/`))
    .filter((dir) => {
      try {
        const owner = Number(readFileSync(path.join(dir, OWNER_FILE), "utf8"));
        return !(Number.isInteger(owner) && owner > 0 && owner !== process.pid && pidAlive(owner));
      } catch {
        return true;
      }
    });
  if (!stale.length) return [];
  const pids = readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .filter((p) => {
      const text = processText(p);
      return stale.some((dir) => text.includes(`${dir}/`) || text.includes(`${dir}\0`));
    })
    .map(Number);
  for (const pid of pids)
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  const deadline = Date.now() + 10_000;
  while (pids.some(pidAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const dir of stale) rmSync(dir, { recursive: true, force: true });
  return stale;
}

/** Whether something accepts connections on the loopback port. */
function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Refuses to start on a port something else holds: a clear message instead of a node that never comes up. */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          `pg_auto_failover: 127.0.0.1:${port} is in use (${err.code}); another formation running, or choose other ports`,
        ),
      ),
    );
    server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
  });
}

export async function startFormation(opts: FormationOptions) {
  const { dir, basePort } = opts;
  if (opts.stalePrefix) await clearStaleFormations(opts.stalePrefix, path.resolve(dir));
  for (const port of [basePort, basePort + 1, basePort + 2]) await assertPortFree(port);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
  const owner =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync("id", ["-u", "postgres"]).toString()),
          gid: Number(execFileSync("id", ["-g", "postgres"]).toString()),
        }
      : null;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  // pg_autoctl keeps its configuration and state under XDG folders: inside `dir`, not the user's home.
  const env = {
    PATH: `${PG_BIN}:/usr/bin:/bin`,
    XDG_CONFIG_HOME: path.join(dir, "config"),
    XDG_DATA_HOME: path.join(dir, "share"),
  };
  const keepers = new Map<string, ChildProcess>();
  const logs: string[] = [];

  const run = (name: string, args: string[]) => {
    const [cmd, argv] = asPostgres(args, env);
    const child = spawn(cmd, argv, { cwd: dir, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const keep = (d: Buffer) => {
      for (const line of d.toString().split("\n").filter(Boolean)) {
        logs.push(`[${name}] ${line}`);
        if (logs.length > 2000) logs.splice(0, 1000);
        opts.onLog?.(`[${name}] ${line}`);
      }
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    keepers.set(name, child);
    return child;
  };
  const running = (name: string) => {
    const c = keepers.get(name);
    return !!c && c.exitCode === null && c.signalCode === null;
  };

  const monitorPort = basePort;
  const monitorUri = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
  const common = ["--hostname", "127.0.0.1", "--listen", "127.0.0.1", "--auth", "trust", "--no-ssl"];
  const nodes: FormationNode[] = [1, 2].map((i) => ({
    name: `node${i}`,
    port: basePort + i,
    pgdata: path.join(dir, `node${i}`),
    running: () => running(`node${i}`),
  }));
  const monitorDir = path.join(dir, "monitor");
  const url = `postgres://postgres@${nodes.map((n) => `127.0.0.1:${n.port}`).join(",")}/relay?target_session_attrs=read-write`;

  let monitor: postgres.Sql | undefined;
  const states = async (): Promise<NodeState[]> =>
    (
      await monitor!<NodeState[]>`select nodename as name, nodeport as port, reportedstate::text as reported,
        goalstate::text as goal from pgautofailover.node order by nodeid`
    ).map((r) => ({ ...r }));

  const until = async (what: string, check: () => Promise<boolean>, timeoutMs: number, each?: () => Promise<void>) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await check().catch(() => false)) return;
      if (Date.now() > deadline)
        throw new Error(`pg_auto_failover: no ${what} within ${timeoutMs / 1000} s\n${logs.slice(-40).join("\n")}`);
      await each?.().catch(() => {});
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  const formation = {
    url,
    monitorUri,
    nodes,
    logs: () => logs.join("\n"),
    states,
    /** The node the monitor has as primary (goal and reported state both), if any. */
    async primary(): Promise<FormationNode | undefined> {
      const s = (await states()).find((n) => n.reported === "primary" && n.goal === "primary");
      return nodes.find((n) => n.port === s?.port);
    },
    /** Waits until one node is primary and the other a streaming secondary: synchronous replication is on. */
    async healthy(timeoutMs = 90_000) {
      await until(
        "primary and secondary",
        async () => {
          const s = await states();
          return (
            s.some((n) => n.reported === "primary" && n.goal === "primary") &&
            s.some((n) => n.reported === "secondary" && n.goal === "secondary")
          );
        },
        timeoutMs,
        // A standby's pg_basebackup waits for the primary's next checkpoint, spread over minutes by
        // default; asking for one now makes it immediate.
        async () => {
          const p = (await states()).find((n) => n.reported === "wait_primary" || n.reported === "single");
          if (p) await withNode(p.port, (sql) => sql`checkpoint`);
        },
      );
    },
    /** SIGKILL to the node's keeper and its PostgreSQL together, as when its machine is lost. */
    async kill(node: FormationNode) {
      const c = keepers.get(node.name);
      if (!c || !running(node.name)) return;
      const exited = new Promise((r) => c.once("exit", r));
      try {
        process.kill(-c.pid!, "SIGKILL");
      } catch {}
      await exited;
      // The keeper's exit is reported before every process of its group is gone, and a process the group
      // did not hold would live on: any process started in the node's data directory is killed too, and
      // the kill returns once its port refuses connections, as a lost machine's does. A check right after
      // (the test's readiness during the outage) once still reached the node.
      if (existsSync("/proc"))
        for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p)))
          if (processText(pid).includes(node.pgdata))
            try {
              process.kill(Number(pid), "SIGKILL");
            } catch {}
      const deadline = Date.now() + 10_000;
      while (await portAnswers(node.port)) {
        if (Date.now() > deadline) throw new Error(`${node.name} still answers on ${node.port} after its kill`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    /** Starts a stopped node's keeper again: it rejoins the formation (as a standby, rewinding if it must). */
    restart(node: FormationNode) {
      run(node.name, ["run", "--pgdata", node.pgdata]);
    },
    /** `pg_autoctl perform switchover`: the primary hands over to the standby; resolves when done. */
    async switchover() {
      const [cmd, argv] = asPostgres(["perform", "switchover", "--monitor", monitorUri], env);
      await new Promise<void>((resolve, reject) => {
        const c = spawn(cmd, argv, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        c.stdout!.on("data", (d) => (out += d));
        c.stderr!.on("data", (d) => (out += d));
        c.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`switchover failed (${code}):\n${out}`))));
      });
    },
    /** Stops every keeper (each stops its PostgreSQL) and removes the data unless `keep`. */
    async stop({ keep = false } = {}) {
      await monitor?.end({ timeout: 1 }).catch(() => {});
      const alive = [...keepers.entries()].filter(([name]) => running(name));
      await Promise.all(
        alive.map(async ([, c]) => {
          const exited = new Promise((r) => c.once("exit", r));
          const signal = (s: NodeJS.Signals) => {
            try {
              process.kill(-c.pid!, s);
            } catch {}
          };
          signal("SIGTERM");
          const t = setTimeout(() => signal("SIGKILL"), 15_000);
          await exited;
          clearTimeout(t);
          signal("SIGKILL");
        }),
      );
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    run("monitor", ["create", "monitor", "--pgdata", monitorDir, "--pgport", String(monitorPort), ...common, "--run"]);
    monitor = postgres(`postgres://postgres@127.0.0.1:${monitorPort}/pg_auto_failover`, {
      max: 1,
      onnotice: () => {},
      connect_timeout: 5,
      // Polled while it starts: try again every quarter second, not postgres.js's growing backoff.
      backoff: () => 0.25,
    });
    await until(
      "monitor",
      async () => (await monitor!`select count(*) from pgautofailover.formation`).length > 0,
      90_000,
    );
    // ALTER SYSTEM cannot run in a transaction block: one statement each.
    for (const [name, value] of Object.entries(opts.monitorSettings ?? {}))
      await monitor.unsafe(`alter system set pgautofailover.${name} = ${Number(value)}`);
    await monitor`select pg_reload_conf()`;
    // One node at a time: the first registers as the primary, the second as its standby.
    for (const node of nodes) {
      run(node.name, [
        "create",
        "postgres",
        "--pgdata",
        node.pgdata,
        "--pgport",
        String(node.port),
        "--name",
        node.name,
        "--dbname",
        "relay",
        "--monitor",
        monitorUri,
        ...common,
        "--run",
      ]);
      if (node === nodes[0])
        await until("first node", async () => (await states()).some((s) => s.reported === "single"), 90_000);
    }
    if (!opts.primaryOnly) await formation.healthy();
    return formation;
  } catch (err) {
    await formation.stop();
    throw err;
  }
}

/** A short-lived connection to one node (as `postgres`, trusted on loopback). */
export async function withNode<T>(port: number, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(`postgres://postgres@127.0.0.1:${port}/relay`, {
    max: 1,
    onnotice: () => {},
    connect_timeout: 3,
  });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

export type Formation = Awaited<ReturnType<typeof startFormation>>;
