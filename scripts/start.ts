import { runMigrations } from "../db/migrate";
import { runTogether } from "./processes";

/** `npm start`: the production build plus the worker. Needs DATABASE_URL and a prior `npm run build`. */
const url = process.env.DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is required for npm start (npm run dev is the path without one).");
  process.exit(1);
}
await runMigrations(url);
runTogether(
  [
    { name: "next", cmd: "node_modules/.bin/next", args: ["start", "-p", process.env.PORT ?? "3000"] },
    { name: "worker", cmd: process.execPath, args: ["--import", "tsx", "worker/index.ts"] },
  ],
  { ...process.env, AUTH_TRUST_HOST: process.env.AUTH_TRUST_HOST ?? "true" },
  async () => {},
);
