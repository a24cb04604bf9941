import { writeFileSync } from "node:fs";
import { createTestDatabase } from "./database";
import { startNextServer } from "./next-server";
import { startWorker } from "./worker";

/**
 * Playwright's web server: a fresh migrated database plus the built app on E2E_PORT. The database URL is
 * written to .next/e2e-database-url so tests can seed data directly; everything is removed on exit.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const db = await createTestDatabase("relay_e2e");
writeFileSync(".next/e2e-database-url", db.url);
const server = await startNextServer({ DATABASE_URL: db.url }, port);
// The worker runs the event pipeline (and schedules), so pages that show its results can be tested.
// Destination tests post to a receiver on loopback (the server gets the same list in next-server.ts).
// The worker signs with secrets the web process sealed: it needs the web's server secret (next-server.ts).
const worker = await startWorker(db.url, {
  DESTINATIONS_ALLOW_HOSTS: "127.0.0.1,localhost",
  AUTH_SECRET: "test-secret-not-for-production",
});
console.log(`[e2e] serving ${server.url} on database ${db.name}, with a worker`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.all([server.stop(), worker.stop()]);
  await db.drop();
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
server.child.on("exit", () => void stop());
