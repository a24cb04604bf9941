import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { startNextServer } from "../../scripts/test/next-server";

/** The environment of a production start with no public origin configured under any name. */
const withoutOrigin = () => {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: "production",
    DATABASE_URL: "postgres://postgres@127.0.0.1:5432/relay_never_used",
  };
  for (const name of ["AUTH_URL", "APP_URL", "RELAY_PUBLIC_URL"]) delete env[name];
  return env;
};

describe("production refuses to start without AUTH_URL (9.3)", () => {
  it("npm start stops before migrating, with one clear line", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      env: withoutOrigin() as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 240_000,
    });
    expect(run.status).toBe(1);
    const lines = (run.stdout + run.stderr).split("\n").filter((l) => l.includes("AUTH_URL"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("AUTH_URL is not set");
  }, 300_000);

  it("next start itself exits at startup, saying why", async () => {
    await expect(startNextServer({ AUTH_URL: "", APP_URL: "", RELAY_PUBLIC_URL: "" })).rejects.toThrow(
      /\[relay\] AUTH_URL is not set/,
    );
  }, 120_000);
});
