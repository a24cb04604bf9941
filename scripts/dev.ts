import { runMigrations } from "../db/migrate";
import { startEmbeddedPostgres } from "./embedded-db";
import { runTogether } from "./processes";

/** `npm run dev`: a database (yours via DATABASE_URL, or an embedded one), migrations, then Next and the worker. */
let url = process.env.DATABASE_URL;
let stopDb = async () => {};
if (!url) {
  const db = await startEmbeddedPostgres();
  url = db.url;
  stopDb = db.stop;
  console.log(`[db] embedded PostgreSQL ready: ${url}`);
}
await runMigrations(url);
console.log("[db] migrations applied");

const port = process.env.PORT ?? "3000";
runTogether(
  [
    { name: "next", cmd: "node_modules/.bin/next", args: ["dev", "-p", port] },
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
