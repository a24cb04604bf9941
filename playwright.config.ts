import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
/** The SMTP capture server the tests start (e2e/support/mailbox.ts); the app sends its mail there. */
const smtpPort = port + 1000;

/** Chromium from Debian (Playwright cannot download browsers here), against the production build. */
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  // Three files at a time on 2 cores, each file's tests in order: the specs wait on pages, mail and the
  // worker more than they compute, so the other browsers use the time one spends waiting. Every spec works
  // in projects and addresses of its own run (runId), and the mail goes to one capture all workers read.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 3),
  globalSetup: "./e2e/support/global-setup.ts",
  // No retries, in CI either: a spec that passes only on its second try hides a race; fix the wait instead.
  retries: 0,
  reporter: [["list"]],
  // Generous bounds: they only matter when a step is slow (a loaded 2-core machine), never on a passing run.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    // 127.0.0.1, as AUTH_URL below: Next spells its own URLs `localhost`, so every test checks that sign-in,
    // redirects and mailed links use the configured origin and never the server's own idea of its host.
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    // Creates a fresh database, migrates it, serves the built app on `port`, and drops the database on exit.
    command: `node --import tsx scripts/test/serve-e2e.ts`,
    url: `http://127.0.0.1:${port}/api/openapi.json`,
    env: {
      E2E_PORT: String(port),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: "Relay <no-reply@relay.test>",
      AUTH_SECRET: "e2e-secret-not-for-production",
      AUTH_URL: `http://127.0.0.1:${port}`,
      REGISTRATION: "invite_only",
      // Every e2e test signs in from 127.0.0.1; the per-address sign-in mail budget is tested in lib/http.
      RATE_LIMIT_SIGNIN_IP: "1000/3600",
    },
    reuseExistingServer: false,
    // Server and worker start; E2E_SERVER_TIMEOUT_MS raises it on a loaded machine.
    timeout: Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 120_000),
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    stdout: "pipe",
  },
});
