import { log } from "../lib/observability/logger";
import { startEmbeddedPostgres } from "./embedded-db";

/**
 * The embedded development database in a process of its own, started detached by `npm run dev`: Ctrl-C
 * then reaches only the supervisor, and the database is stopped last, after the worker and the web have
 * let go of it (a database that got the terminal's SIGINT stopped first and the worker printed hundreds
 * of connection errors). Sends `{ url }` over IPC when ready; SIGTERM stops the server cleanly.
 */
const db = await startEmbeddedPostgres();
process.send!({ url: db.url });
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await db.stop();
  log.info("embedded PostgreSQL stopped");
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
// The supervisor died without stopping us (SIGKILL): stop the database rather than orphan it.
process.on("disconnect", () => void stop());
