import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { runMigrations } from "../../db/migrate";

/** The server tests create their databases on: the machine's PostgreSQL unless TEST_DATABASE_URL says otherwise. */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Names a migrated database that createTestDatabase() copies instead of migrating each new one from scratch
 * (a copy takes a fraction of the migrations' time). The integration run's global setup makes it, sets this
 * for the test files (their forks inherit the environment) and drops it at the end.
 */
export const TEMPLATE_ENV = "RELAY_TEST_TEMPLATE_DB";

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

function admin() {
  return postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
}

async function dropDatabase(name: string) {
  const a = admin();
  await a.unsafe(`drop database if exists "${name}" with (force)`);
  await a.end();
}

/**
 * A fresh, migrated database with a unique name; `drop()` removes it. A copy of the template database when
 * RELAY_TEST_TEMPLATE_DB names one, else created empty and migrated.
 */
export async function createTestDatabase(prefix = "relay_test") {
  return createDatabase(prefix, process.env[TEMPLATE_ENV]);
}

async function createDatabase(prefix: string, template: string | undefined) {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const a = admin();
  try {
    await a.unsafe(`create database "${name}"${template ? ` template "${template}"` : ""}`);
  } catch (err) {
    throw new Error(
      `Cannot create a test database on ${ADMIN_URL}: ${(err as Error).message}. Is PostgreSQL running? (pg_ctlcluster --skip-systemctl-redirect 15 main start)`,
    );
  } finally {
    await a.end();
  }
  const url = withDatabase(ADMIN_URL, name);
  if (!template) await runMigrations(url);
  return {
    name,
    url,
    async drop() {
      if (process.env.KEEP_TEST_DB) return console.log(`[test] kept database ${name}`);
      await dropDatabase(name);
    },
  };
}

/**
 * A migrated database to copy (see TEMPLATE_ENV). It refuses connections once migrated: a copy is refused
 * while anyone is connected to its template, so nothing may linger on it.
 */
export async function createTemplateDatabase() {
  const db = await createDatabase("relay_template", undefined);
  const a = admin();
  try {
    await a.unsafe(`alter database "${db.name}" with allow_connections false`);
  } finally {
    await a.end();
  }
  return { name: db.name, drop: () => dropDatabase(db.name) };
}
