import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";

/** The secret every test server and worker shares: a worker of any test file may claim another's work
 * (destinations' sealed signing secrets, signed links), so they must all read what the server wrote. */
export const TEST_AUTH_SECRET = "test-secret-not-for-production";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/**
 * Starts the built app (`next start`) on a free port against `databaseUrl`. Set TEST_NEXT=dev to use
 * `next dev` instead while iterating (no build needed, slower first requests).
 */
export async function startNextServer(
  env: Record<string, string>,
  fixedPort?: number,
): Promise<{ url: string; child: ChildProcess; output: () => string; stop: () => Promise<void> }> {
  const mode = process.env.TEST_NEXT === "dev" ? "dev" : "start";
  if (mode === "start" && !existsSync(".next/BUILD_ID")) {
    throw new Error("No production build: run `npm run build` first (npm test does), or set TEST_NEXT=dev.");
  }
  const port = fixedPort ?? (await freePort());
  const child = spawn("node_modules/.bin/next", [mode, "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NODE_ENV: mode === "dev" ? "development" : "production",
      AUTH_TRUST_HOST: "true",
      AUTH_SECRET: TEST_AUTH_SECRET,
      AUTH_URL: process.env.AUTH_URL ?? `http://127.0.0.1:${port}`,
      // Tests may use second-long schedule intervals (docs/decisions/0024); production's minimum is a minute.
      SCHEDULE_MIN_INTERVAL: "1 second",
      // Webhook receivers of the destination tests listen on loopback (lib/destinations/check-url.ts).
      DESTINATIONS_ALLOW_HOSTS: "127.0.0.1,localhost",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  // Only the last 4 MiB are kept: a long suite (the fuzz test logs every request) once overflowed a string.
  let output = "";
  const keep = (d: Buffer | string) => {
    output += d;
    if (output.length > 8 * 1024 * 1024) output = output.slice(-4 * 1024 * 1024);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", (d) => {
    keep(d);
    if (process.env.TEST_SERVER_LOG) process.stderr.write(d);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next ${mode} exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/openapi.json`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`next ${mode} did not answer within 90 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGKILL, to the whole group: `next` forks `next-server`, which would otherwise outlive it. Not
      // SIGTERM: Next's graceful close waits out the idle keep-alive connections of the test process's
      // fetch (3-5 s a server), and no test looks at how a test server ends, only at what it answered.
      const exited = new Promise((r) => child.once("exit", r));
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
      await exited;
    },
  };
}
