import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../scripts/test/database";

/**
 * Citus distributes a table by one column and enforces only unique indexes and foreign keys that include
 * it, co-located: for us `project_id`, first. This reads the migrated schema from the catalog (not the
 * drizzle source) and fails on any end-user table whose unique index, primary key or foreign key (either
 * end) does not start with `project_id`. Console tables are small and would become Citus reference tables.
 */
const CONSOLE_TABLES = new Set(["api_keys", "project_members", "project_invites"]);
/** Tables without `project_id`: console and runtime bookkeeping, never end-user data. A new one must be listed here on purpose. */
const GLOBAL_TABLES = new Set([
  "admin_accounts",
  "admin_org_members",
  "admin_orgs",
  "admin_sessions",
  "admin_verification_tokens",
  "admins",
  "projects",
  // Runtime bookkeeping: worker heartbeats, and rate-limit buckets keyed by API key or caller address.
  "worker_heartbeats",
  "rate_limits",
]);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
beforeAll(async () => {
  db = await createTestDatabase("relay_test_dist");
  sql = postgres(db.url, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await sql.end();
  await db.drop();
});

/** Unique indexes and foreign keys (either end) of end-user tables whose first column is not project_id. */
async function keyViolations(): Promise<{ count: number; bad: string[] }> {
  const rows = await sql<{ tbl: string; kind: string; name: string; first: string }[]>`
      with t as (
        select c.oid, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p')
          and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'project_id' and not a.attisdropped))
      select t.relname as tbl, 'unique index' as kind, i.indexrelid::regclass::text as name,
        coalesce((select attname from pg_attribute where attrelid = t.oid and attnum = i.indkey[0]), 'an expression') as first
      from t join pg_index i on i.indrelid = t.oid where i.indisunique
      union all
      select t.relname, 'foreign key', con.conname, (select attname from pg_attribute where attrelid = t.oid and attnum = con.conkey[1])
      from t join pg_constraint con on con.conrelid = t.oid and con.contype = 'f'
      union all
      select t.relname, 'referenced key', con.conname, (select attname from pg_attribute where attrelid = con.confrelid and attnum = con.confkey[1])
      from t join pg_constraint con on con.confrelid = t.oid and con.contype = 'f'`;
  const checked = rows.filter((r) => !CONSOLE_TABLES.has(r.tbl));
  return {
    count: checked.length,
    bad: checked
      .filter((r) => r.first !== "project_id")
      .map((r) => `${r.tbl}: ${r.kind} ${r.name} starts with ${r.first}`),
  };
}

describe("schema is distributable by project_id", () => {
  it("every end-user table has project_id; the others are known global tables", async () => {
    const rows = await sql<{ relname: string; has: boolean }[]>`
      select c.relname, exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'project_id' and not a.attisdropped) as has
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p')`;
    expect(rows.length).toBeGreaterThan(20);
    const unknownGlobal = rows.filter((r) => !r.has && !GLOBAL_TABLES.has(r.relname)).map((r) => r.relname);
    expect(unknownGlobal, "tables without project_id that are not known global tables").toEqual([]);
  });

  it("every unique index and foreign key of an end-user table starts with project_id", async () => {
    const { count, bad } = await keyViolations();
    expect(count).toBeGreaterThan(40);
    expect(bad).toEqual([]);
  });

  it("the check catches a violation", async () => {
    // A table made to break the rule must be reported, or the test above could pass by reading nothing.
    await sql`create table dist_probe (project_id uuid not null, email text not null, unique (email, project_id))`;
    try {
      expect((await keyViolations()).bad).toEqual([
        expect.stringMatching(/^dist_probe: unique index .* starts with email$/),
      ]);
    } finally {
      await sql`drop table dist_probe`;
    }
  });
});
