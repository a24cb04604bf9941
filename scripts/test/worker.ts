import { spawn, type ChildProcess } from "node:child_process";
import { TEST_AUTH_SECRET } from "./next-server";

export interface TestWorker {
  child: ChildProcess;
  output: () => string;
  /** SIGTERM and wait (graceful), or SIGKILL when `signal` says so. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

/** Starts a real worker process (`worker/index.ts`) against `databaseUrl` and waits until it is ready. */
export async function startWorker(databaseUrl: string, env: Record<string, string> = {}): Promise<TestWorker> {
  const child = spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
    env: {
      ...process.env,
      AUTH_SECRET: process.env.AUTH_SECRET ?? TEST_AUTH_SECRET,
      DATABASE_URL: databaseUrl,
      // Three files run at once, each with a worker or three of its own, on a PostgreSQL that allows 100
      // connections: a test worker's pool is 4 (a worker's own default, 10, ran the suite out of clients).
      DATABASE_POOL_SIZE: process.env.TEST_WORKER_POOL_SIZE ?? "4",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Bounded like the server's output: a long run must not overflow one string.
  let out = "";
  const keep = (d: Buffer | string) => {
    out += d;
    if (out.length > 8 * 1024 * 1024) out = out.slice(-4 * 1024 * 1024);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", (d) => {
    keep(d);
    if (process.env.TEST_WORKER_LOG) process.stderr.write(d);
  });
  // TEST_WORKER_READY_MS: a loaded machine can take minutes to compile the worker with tsx.
  const readyMs = Number(process.env.TEST_WORKER_READY_MS ?? 180_000);
  const deadline = Date.now() + readyMs;
  while (!out.includes("[worker] ready")) {
    if (child.exitCode !== null) throw new Error(`worker exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`worker not ready within ${readyMs / 1000} s:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    output: () => out,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill(signal);
      const t = setTimeout(() => child.kill("SIGKILL"), 25_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** Polls `check` until it returns a truthy value or the time runs out. */
export async function waitFor<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
