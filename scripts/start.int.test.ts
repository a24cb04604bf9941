import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { freePort } from "./test/next-server";
import { waitFor } from "./test/worker";

/** Every live process whose environment names `supervisor` as its RELAY_SUPERVISOR_PID (its children, and theirs). */
function childrenOf(supervisor: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (/\) Z /.test(stat)) continue; // a zombie is gone, only not yet reaped
      if (env.includes(`RELAY_SUPERVISOR_PID=${supervisor}`)) out.push(Number(entry));
    } catch {} // gone meanwhile, or not ours to read
  }
  return out;
}

describe("npm start", () => {
  it("leaves no web server or worker behind when the supervisor is killed with SIGKILL", async () => {
    const port = await freePort();
    const workerPort = await freePort();
    const supervisor = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: inject("databaseUrl"),
        PORT: String(port),
        WORKER_PORT: String(workerPort),
        AUTH_URL: `http://127.0.0.1:${port}`,
        AUTH_SECRET: "test-secret-not-for-production",
        LOG_FORMAT: "json",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    supervisor.stdout!.on("data", (d) => (out += d));
    supervisor.stderr!.on("data", (d) => (out += d));
    try {
      await waitFor(
        async () => {
          const web = await fetch(`http://127.0.0.1:${port}/api/health/live`).catch(() => null);
          return web?.ok && out.includes("[worker] ready");
        },
        180_000,
        "web and worker up",
      );
      const children = childrenOf(supervisor.pid!);
      expect(children.length).toBeGreaterThanOrEqual(2); // next (and next-server) and the worker
      supervisor.kill("SIGKILL");
      await waitFor(async () => childrenOf(supervisor.pid!).length === 0, 60_000, "every child gone");
      expect(await fetch(`http://127.0.0.1:${port}/api/health/live`).catch(() => "refused")).toBe("refused");
    } finally {
      supervisor.kill("SIGKILL");
      for (const pid of childrenOf(supervisor.pid!)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {}
      }
    }
  }, 300_000);
});
