import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";

export interface RowMerge {
  /** Values of the table's key columns after `project_id`, in `keys` order. */
  key: string[];
  /** Columns to set (null clears); omitted columns are kept. */
  columns?: Record<string, string | null>;
  /** Shallow-merged into `data` with `||`. */
  data?: Record<string, unknown>;
}

/**
 * Updates many rows of one table in one statement and reports, per row, which keys actually changed:
 * the given columns are set (null clears), and `data` is shallow-merged with `||` (top-level keys added
 * or overwritten, nested objects replaced whole, unmentioned keys kept). jsonb equality decides
 * "changed", so `1.0` vs `1` or reordered keys are not changes. `updated_at` moves only when something
 * changed. Returns the changed keys (`email`, `data.plan`, ...) in the order of `rows`, or null for a row
 * that does not exist.
 *
 * The caller must hold the rows' locks, taken in an earlier statement of this transaction: locking
 * inside this statement would wait for a concurrent writer and then compare against the older snapshot
 * (a silently lost update). In READ COMMITTED the next statement takes a fresh snapshot.
 */
export async function mergeRows(
  ctx: ProjectContext,
  opts: { table: string; keys: string[]; columns: readonly string[]; rows: RowMerge[] },
): Promise<(string[] | null)[]> {
  if (!opts.rows.length) return [];
  const table = sql.identifier(opts.table);
  const keyDefs = opts.keys.map((_, i) => `k${i} uuid`).join(", ");
  const keyJoin = sql.join(
    opts.keys.map((k, i) => sql`t.${sql.identifier(k)} = x.${sql.raw(`k${i}`)}`),
    sql` and `,
  );
  const cases = opts.columns.map(
    (c) => sql`case when ch_c ? ${c} and old.${sql.identifier(c)} is distinct from ch_c ->> ${c} then ${c} end`,
  );
  const sets = opts.columns.map(
    (c) => sql`${sql.identifier(c)} = case when ch.ch_c ? ${c} then ch.ch_c ->> ${c} else u.${sql.identifier(c)} end`,
  );
  const input = opts.rows.map((r, ord) => ({
    ord,
    ...Object.fromEntries(r.key.map((v, i) => [`k${i}`, v])),
    ch_c: r.columns ?? {},
    ch_d: r.data && Object.keys(r.data).length ? r.data : null,
  }));
  const { db: tx, projectId } = ctx;
  const changed = await queryRows<{ ord: number; keys: string[] }>(
    tx,
    sql`
    with x as (select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as x(ord int, ${sql.raw(keyDefs)}, ch_c jsonb, ch_d jsonb)),
    -- One key probe per row (OFFSET 0: not flattened into a join the planner could turn into a scan of
    -- the project when the table's statistics are stale), and the row's ctid for the update below: the
    -- caller holds the rows' locks, so no other writer can move them before it.
    old as (select x.*, t.* from x cross join lateral (
      select t.ctid as _tid, t.* from ${table} t where t.project_id = ${projectId}::uuid and ${keyJoin} offset 0) t),
    ch as (
      select old.*, array_remove(array[${sql.join([...cases, sql`null`], sql`, `)}]::text[], null)
        || coalesce((select array_agg('data.' || n.key order by n.key) from jsonb_each(coalesce(ch_d, '{}'::jsonb)) n
                     where old.data -> n.key is distinct from n.value), '{}'::text[]) as keys
      from old)
    update ${table} u set ${sql.join(
      [
        ...sets,
        sql`data = case when ch.ch_d is null then u.data else u.data || ch.ch_d end`,
        sql`updated_at = case when cardinality(ch.keys) > 0 then now() else u.updated_at end`,
      ],
      sql`, `,
    )}
    from ch where u.ctid = ch._tid and u.project_id = ${projectId}::uuid
    returning ch.ord, ch.keys`,
  );
  const out: (string[] | null)[] = opts.rows.map(() => null);
  for (const r of changed) out[r.ord] = r.keys;
  return out;
}
