import { runMigrations } from "../db/migrate";
import { log } from "../lib/observability/logger";
import { runTogether } from "./processes";

/**
 * The development servers on the database at `url` (`npm run dev` and `npm run ha:dev`): migrations, then
 * Next in dev mode and the worker, with the development defaults (open registration, a fixed AUTH_SECRET
 * unless one is set). Ctrl-C stops the worker, then Next, then runs `stopDb`.
 */
export async function startDevServers(url: string, stopDb: () => Promise<void>) {
  await runMigrations(url);
  log.info("migrations applied");
  const port = process.env.PORT ?? "3000";
  runTogether(
    [
      { name: "web", cmd: "node_modules/.bin/next", args: ["dev", "-p", port] },
      { name: "worker", cmd: process.execPath, args: ["--import", "tsx", "worker/index.ts"] },
    ],
    {
      ...process.env,
      DATABASE_URL: url,
      AUTH_SECRET: process.env.AUTH_SECRET ?? "development-only-secret-change-me",
      AUTH_TRUST_HOST: "true",
      REGISTRATION: process.env.REGISTRATION ?? "open",
    },
    stopDb,
  );
}
