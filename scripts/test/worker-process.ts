import { spawn, type ChildProcess } from "node:child_process";

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  /** SIGTERM (graceful: in-flight work commits) and wait for exit. */
  stop: () => Promise<void>;
  /** SIGKILL: the process dies wherever it is, as in a crash. */
  kill: () => Promise<void>;
}

/**
 * Spawns the real worker (`node --import tsx worker/index.ts`) against `databaseUrl` and resolves once
 * it logs `ready`. Stop it in afterAll; tests that need several workers start several.
 */
export async function startWorker(databaseUrl: string, env: Record<string, string> = {}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const onData = (d: Buffer) => {
    out += d;
    if (process.env.TEST_WORKER_LOG) process.stderr.write(d);
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const deadline = Date.now() + 60_000;
  while (!out.includes("[worker] ready")) {
    if (child.exitCode !== null) throw new Error(`worker exited early:\n${out}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`worker not ready within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return { child, output: () => out, stop: () => signal("SIGTERM"), kill: () => signal("SIGKILL") };
}
