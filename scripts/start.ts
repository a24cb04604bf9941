import { runMigrations } from "../db/migrate";
import { exitUnlessPublicOriginConfigured } from "../lib/http/public-origin";
import { log } from "../lib/observability/logger";
import { runTogether } from "./processes";

/**
 * `npm start`: the production build plus the worker. Needs DATABASE_URL and a prior `npm run build`.
 * A worker that crashes is restarted with backoff (and logged); the web exiting stops everything.
 */
process.env.RELAY_PROCESS ??= "start";
const url = process.env.DATABASE_URL;
if (!url) {
  log.fatal("DATABASE_URL is required for npm start (npm run dev is the path without one).");
  process.exit(1);
}
exitUnlessPublicOriginConfigured({ ...process.env, NODE_ENV: "production" });
// Through a transaction-mode pooler the advisory lock would not hold: DATABASE_DIRECT_URL names PostgreSQL itself.
await runMigrations(process.env.DATABASE_DIRECT_URL ?? url);
runTogether(
  [
    { name: "web", cmd: "node_modules/.bin/next", args: ["start", "-p", process.env.PORT ?? "3000"] },
    { name: "worker", cmd: process.execPath, args: ["--import", "tsx", "worker/index.ts"], restart: true },
  ],
  { ...process.env, NODE_ENV: "production", AUTH_TRUST_HOST: process.env.AUTH_TRUST_HOST ?? "true" },
  async () => {},
);
