import { spawn } from "node:child_process";
import { runMigrations } from "../db/migrate";
import { exitUnlessPublicOriginConfigured } from "../lib/http/public-origin";
import { log } from "../lib/observability/logger";

/**
 * `npm run start:web`: one web process alone (run any number behind a load balancer, with any number of
 * `npm run worker`). Migrations run first under an advisory lock, so processes started together apply
 * them once. Signals are passed on to Next.
 */
process.env.RELAY_PROCESS ??= "web";
const url = process.env.DATABASE_URL;
if (!url) {
  log.fatal("DATABASE_URL is required for npm run start:web.");
  process.exit(1);
}
exitUnlessPublicOriginConfigured({ ...process.env, NODE_ENV: "production" });
// Through a transaction-mode pooler the advisory lock would not hold: DATABASE_DIRECT_URL names PostgreSQL itself.
await runMigrations(process.env.DATABASE_DIRECT_URL ?? url);
const next = spawn(
  "node_modules/.bin/next",
  ["start", "-p", process.env.PORT ?? "3000", ...(process.env.HOST ? ["-H", process.env.HOST] : [])],
  {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", AUTH_TRUST_HOST: process.env.AUTH_TRUST_HOST ?? "true" },
  },
);
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => next.kill(sig));
next.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
