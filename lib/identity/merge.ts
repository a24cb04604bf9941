import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";

/**
 * Updates one row in SQL and reports which keys actually changed, in one statement:
 * the listed columns are set (null clears), and `data` is shallow-merged with `||` (top-level keys added
 * or overwritten, nested objects replaced whole, unmentioned keys kept). jsonb equality decides "changed",
 * so `1.0` vs `1` or reordered keys are not changes. `updated_at` moves only when something changed.
 * Returns the changed keys (`email`, `data.plan`, ...), or null when no row matched.
 */
export async function mergeRow(
  tx: DbOrTx,
  opts: {
    table: string;
    where: SQL;
    columns?: Record<string, string | null>;
    data?: Record<string, unknown>;
    /** The caller already holds the row lock, taken in an earlier statement of this transaction. */
    locked?: boolean;
  },
): Promise<string[] | null> {
  const table = sql.identifier(opts.table);
  const columns = Object.entries(opts.columns ?? {});
  const cases = columns.map(([name, value]) => sql`case when old.${sql.identifier(name)} is distinct from ${value}::text then ${name} end`);
  const sets = columns.map(([name, value]) => sql`${sql.identifier(name)} = ${value}::text`);
  const data = opts.data && Object.keys(opts.data).length ? JSON.stringify(opts.data) : null;
  if (data) sets.push(sql`data = u.data || ${data}::jsonb`);
  const dataChanges = data
    ? sql`coalesce((select array_agg('data.' || n.key order by n.key) from jsonb_each(${data}::jsonb) n where old.data -> n.key is distinct from n.value), '{}'::text[])`
    : sql`'{}'::text[]`;
  // Lock first, in its own statement. Locking inside the UPDATE's CTE would wait for a concurrent writer
  // and then find the new row version invisible to the UPDATE's older snapshot: a silently lost update.
  // In READ COMMITTED the next statement takes a fresh snapshot, and the lock keeps the row still.
  if (!opts.locked) {
    const locked = await tx.execute(sql`select 1 from ${table} t where ${opts.where} for update`);
    if (!locked.length) return null;
  }
  const rows = await tx.execute<{ keys: string[] }>(sql`
    with old as (select t.ctid as row_id, t.* from ${table} t where ${opts.where}),
    ch as (select array_remove(array[${sql.join([...cases, sql`null`], sql`, `)}]::text[], null) || ${dataChanges} as keys from old)
    update ${table} u set ${sql.join([...sets, sql`updated_at = case when cardinality(ch.keys) > 0 then now() else u.updated_at end`], sql`, `)}
    from old, ch where u.ctid = old.row_id
    returning ch.keys`);
  const row = rows[0];
  return row ? row.keys : null;
}
