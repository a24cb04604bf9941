import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/test/next-server";

/**
 * Our processes as an operator runs them: `npm run start:web` (migrations under the advisory lock, then
 * `next start`) and `npm run worker`, each its own process group, any number of each on one DATABASE_URL.
 * Output goes to memory (shown when a test fails) rather than the terminal.
 */
export interface Proc {
  name: string;
  child: ChildProcess;
  /** http://127.0.0.1:port for a web process, the worker's ops port for a worker. */
  url: string;
  output(): string;
  alive(): boolean;
  /** SIGKILL to the whole group: the process and anything it forked (next-server), no goodbye. */
  kill(): Promise<void>;
  /** SIGTERM to the group and wait; SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Every process this test process launched, so a failed start (a timed-out hook) leaves none behind. */
const launched: Proc[] = [];

/** Stops every process launched here that is still running. */
export async function stopLaunched() {
  await Promise.all(launched.map((p) => p.stop()));
}

function launch(name: string, script: string, env: Record<string, string>, url: string): Proc {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_FORMAT: "json",
      AUTH_TRUST_HOST: "true",
      AUTH_SECRET: "scale-test-secret-not-for-production",
      ...env,
      RELAY_PROCESS: name,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  // Keep the last 200 kB per process: enough to read what went wrong, bounded however long the run.
  let out = "";
  const keep = (d: Buffer) => {
    out += d;
    if (out.length > 400_000) out = out.slice(-200_000);
    if (process.env.SCALE_LOG) process.stderr.write(`[${name}] ${d}`);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const alive = () => child.exitCode === null && child.signalCode === null;
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {}
  };
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const proc: Proc = {
    name,
    child,
    url,
    output: () => out,
    alive,
    async kill() {
      signal("SIGKILL");
      await exited;
    },
    async stop(graceMs = 20_000) {
      if (!alive()) return signal("SIGKILL");
      signal("SIGTERM");
      const t = setTimeout(() => signal("SIGKILL"), graceMs);
      await exited;
      clearTimeout(t);
      // The group may still hold next-server for a moment after its parent left.
      signal("SIGKILL");
    },
  };
  launched.push(proc);
  return proc;
}

async function until(proc: Proc, ready: () => Promise<boolean>, what: string, timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!proc.alive()) throw new Error(`${proc.name} exited before ${what}:\n${proc.output().slice(-4000)}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`${proc.name}: no ${what} within ${timeoutMs / 1000} s:\n${proc.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** One `npm run start:web` on a free port; resolves once `/api/health/live` answers. */
export async function startWeb(name: string, databaseUrl: string, env: Record<string, string> = {}): Promise<Proc> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = launch(
    name,
    "scripts/start-web.ts",
    { DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1", AUTH_URL: url, ...env },
    url,
  );
  await until(proc, async () => (await fetch(`${url}/api/health/live`)).ok, "health/live");
  return proc;
}

/** One `npm run worker` with its ops server on a free port; resolves once it logged that it is ready. */
export async function startWorkerProc(
  name: string,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<Proc> {
  const port = await freePort();
  const proc = launch(
    name,
    "worker/index.ts",
    { DATABASE_URL: databaseUrl, WORKER_PORT: String(port), ...env },
    `http://127.0.0.1:${port}`,
  );
  // Its ops port answers once everything else has started (and whatever LOG_LEVEL hides).
  await until(
    proc,
    async () => proc.output().includes("[worker] ready") || (await fetch(`${proc.url}/health/live`)).ok,
    "worker ready",
  );
  return proc;
}

/** Several webs and workers started at the same moment (so their migrations race for the lock). */
export async function startCluster(
  databaseUrl: string,
  opts: { webs: number; workers: number; env?: Record<string, string>; workerEnv?: Record<string, string> },
) {
  const [webs, workers] = await Promise.all([
    Promise.all(Array.from({ length: opts.webs }, (_, i) => startWeb(`web${i + 1}`, databaseUrl, opts.env))),
    Promise.all(
      Array.from({ length: opts.workers }, (_, i) =>
        startWorkerProc(`worker${i + 1}`, databaseUrl, { ...opts.env, ...opts.workerEnv }),
      ),
    ),
  ]);
  const all = [...webs, ...workers];
  return {
    webs,
    workers,
    all,
    async stop() {
      await Promise.all(all.map((p) => p.stop()));
    },
    /** Writes every process's output to a folder (for a failed run) and returns its path. */
    dumpLogs(): string {
      const dir = mkdtempSync(path.join(tmpdir(), "relay-scale-logs-"));
      for (const p of all) writeFileSync(path.join(dir, `${p.name}.log`), p.output());
      return dir;
    },
  };
}

export type Cluster = Awaited<ReturnType<typeof startCluster>>;

export function removeDir(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}
