import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { runMigrations } from "../../db/migrate";

/** The server tests create their databases on: the machine's PostgreSQL unless TEST_DATABASE_URL says otherwise. */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh, migrated database with a unique name; `drop()` removes it. */
export async function createTestDatabase(prefix = "relay_test") {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } catch (err) {
    await admin.end();
    throw new Error(
      `Cannot create a test database on ${ADMIN_URL}: ${(err as Error).message}. Is PostgreSQL running? (pg_ctlcluster --skip-systemctl-redirect 15 main start)`,
    );
  }
  await admin.end();
  const url = withDatabase(ADMIN_URL, name);
  await runMigrations(url);
  return {
    name,
    url,
    async drop() {
      if (process.env.KEEP_TEST_DB) return console.log(`[test] kept database ${name}`);
      const a = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}
