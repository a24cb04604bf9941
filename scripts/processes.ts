import { spawn, type ChildProcess } from "node:child_process";
import { log } from "../lib/observability/logger";
import { SUPERVISOR_PID_ENV } from "../lib/observability/supervisor";

export interface ProcessSpec {
  name: string;
  cmd: string;
  args: string[];
  /** Restart this one with backoff when it exits on its own (production worker), instead of stopping everything. */
  restart?: boolean;
}

const BACKOFF_MS = [1000, 2000, 5000, 10_000, 30_000];
/** A child that stayed up this long is healthy again: its next crash starts the backoff from the beginning. */
const STABLE_MS = 60_000;

/**
 * Runs child processes side by side. Each child gets its own process group, so Ctrl-C reaches only this
 * supervisor, which then stops the children one at a time in reverse start order (worker, then web),
 * waiting for each, and finally calls `onExit` (which stops the database). Should the supervisor itself be
 * killed outright, every child sees it gone within a second and exits (RELAY_SUPERVISOR_PID). A child marked `restart` that
 * exits on its own is restarted with backoff; any other child exiting stops everything.
 */
export function runTogether(commands: ProcessSpec[], env: NodeJS.ProcessEnv, onExit: () => Promise<void>) {
  const running = new Map<string, ChildProcess>();
  let stopping = false;

  const stop = async (code: number, why: string) => {
    if (stopping) return;
    stopping = true;
    log.info(
      `stopping (${why}): ${[...commands]
        .reverse()
        .map((c) => c.name)
        .join(", then ")}, then the database`,
    );
    for (const { name } of [...commands].reverse()) {
      const child = running.get(name);
      if (child) await stopChild(child);
    }
    await onExit();
    log.info(code === 0 ? "stopped cleanly" : `stopped (exit code ${code})`);
    process.exit(code);
  };

  const start = (spec: ProcessSpec, attempt = 0) => {
    const startedAt = Date.now();
    const child = spawn(spec.cmd, spec.args, {
      // Each child (and next's own child) watches this pid and exits when it is gone
      // (lib/observability/supervisor.ts): a SIGKILLed supervisor leaves no orphans holding the port.
      env: { ...env, RELAY_PROCESS: spec.name, [SUPERVISOR_PID_ENV]: String(process.pid) },
      stdio: ["ignore", "inherit", "inherit"],
      detached: true,
    });
    running.set(spec.name, child);
    child.on("exit", (code, signal) => {
      running.delete(spec.name);
      if (stopping) return;
      if (spec.restart) {
        // `next` counts crashes in a row (1 for the first), so the first restart waits the shortest delay.
        const next = Date.now() - startedAt > STABLE_MS ? 1 : attempt + 1;
        const delay = BACKOFF_MS[Math.min(next - 1, BACKOFF_MS.length - 1)]!;
        log.error(
          { child: spec.name, code, signal, restartInMs: delay, attempt: next },
          `${spec.name} exited; restarting it in ${delay / 1000} s`,
        );
        setTimeout(() => !stopping && start(spec, next), delay).unref();
        return;
      }
      log.error({ child: spec.name, code, signal }, `${spec.name} exited; stopping everything`);
      void stop(code ?? 1, `${spec.name} exited`);
    });
  };

  for (const spec of commands) start(spec);
  process.on("SIGINT", () => void stop(0, "SIGINT"));
  process.on("SIGTERM", () => void stop(0, "SIGTERM"));
  // Keeps the supervisor alive while a restart waits on its (unref'd) timer.
  setInterval(() => {}, 1 << 30);
}

/** SIGTERM to the child's whole group (next forks next-server), then SIGKILL if it has not left in 25 s. */
export function stopChild(child: ChildProcess, graceMs = 25_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = (sig: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, sig);
      } catch {}
    };
    const t = setTimeout(() => kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(t);
      resolve();
    });
    kill("SIGTERM");
  });
}
