import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Runs scripts/test/fixtures/together.ts (runTogether over two stand-in children) and collects its output. */
function supervisor(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/test/fixtures/together.ts"], {
    env: {
      ...process.env,
      LOG_LEVEL: "info",
      MARKER: path.join(mkdtempSync(path.join(tmpdir(), "together-")), "crashed"),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const waitFor = async (text: string | RegExp, times = 1) => {
    const deadline = Date.now() + 60_000;
    const count = () =>
      typeof text === "string" ? out.split(text).length - 1 : (out.match(new RegExp(text, "g")) ?? []).length;
    while (count() < times) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${text}:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, output: () => out, exited, waitFor };
}

const order = (out: string, lines: string[]) => lines.map((l) => out.indexOf(l));

describe("runTogether (npm run dev / npm start)", () => {
  it("on Ctrl-C stops the worker, then the web, then the database, and ends with one clean line", async () => {
    const s = supervisor({});
    await s.waitFor("web started");
    await s.waitFor("worker started");
    s.child.kill("SIGINT");
    expect(await s.exited).toBe(0);
    const out = s.output();
    const at = order(out, [
      "worker got SIGTERM",
      "worker exited",
      "web got SIGTERM",
      "web exited",
      "database stopped",
      "stopped cleanly",
    ]);
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(out).toContain("stopping (SIGINT): worker, then web, then the database");
  }, 90_000);

  it("restarts a crashed worker with backoff (logged) and keeps the web up; without restart, a crash stops everything", async () => {
    const s = supervisor({ CRASH_WORKER: "1", RESTART_WORKER: "1" });
    await s.waitFor("worker started", 2);
    expect(s.output()).toMatch(/worker exited; restarting it in 1 s/);
    expect(s.output()).not.toContain("web got SIGTERM");
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);

    const d = supervisor({ CRASH_WORKER: "1" });
    expect(await d.exited).toBe(3);
    expect(d.output()).toMatch(/worker exited; stopping everything/);
    expect(d.output().indexOf("web got SIGTERM")).toBeLessThan(d.output().indexOf("database stopped"));
  }, 90_000);
});
