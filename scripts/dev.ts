import { fork } from "node:child_process";
import { log } from "../lib/observability/logger";
import { startDevServers } from "./dev-servers";
import { stopChild } from "./processes";

/**
 * `npm run dev`: a database (yours via DATABASE_URL, or an embedded one in its own process), migrations,
 * then Next and the worker. Ctrl-C stops the worker, then Next, then the embedded database, in that order.
 */
process.env.RELAY_PROCESS ??= "dev";
let url = process.env.DATABASE_URL;
let stopDb = async () => {};
if (!url) {
  const db = fork("scripts/embedded-db-process.ts", [], {
    execArgv: ["--import", "tsx"],
    detached: true,
    env: { ...process.env, RELAY_PROCESS: "db" },
  });
  url = await new Promise<string>((resolve, reject) => {
    db.once("message", (m) => resolve((m as { url: string }).url));
    db.once("exit", (code) => reject(new Error(`the embedded PostgreSQL did not start (exit ${code})`)));
  });
  stopDb = () => stopChild(db, 15_000);
  log.info(`embedded PostgreSQL ready: ${url}`);
}
await startDevServers(url, stopDb);
