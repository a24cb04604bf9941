/** The variable `npm start`'s supervisor (scripts/processes.ts) sets on its children: its own pid. */
export const SUPERVISOR_PID_ENV = "RELAY_SUPERVISOR_PID";

/**
 * Under `npm start`, ends this process once its supervisor is gone. A supervisor killed with SIGKILL (or by
 * the OOM killer) cannot stop its children, and a child in its own process group would live on as an orphan
 * holding the port. The supervisor's pid is checked every `everyMs` (signal 0: existence only); `onGone`
 * runs once when it has disappeared (a graceful shutdown), and the process exits if that does not.
 * Works at any depth (next forks next-server), where an IPC channel reaches only the direct child.
 */
export function exitWithSupervisor(onGone: () => void | Promise<void>, everyMs = 1000): void {
  const pid = Number(process.env[SUPERVISOR_PID_ENV]);
  if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) return;
  const timer = setInterval(() => {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ESRCH") return; // EPERM: it exists, under another user
      clearInterval(timer);
      // Whatever onGone does, the process ends within 30 s.
      setTimeout(() => process.exit(1), 30_000).unref();
      Promise.resolve()
        .then(onGone)
        .catch(() => {})
        .finally(() => process.exit(1));
    }
  }, everyMs);
  timer.unref();
}
