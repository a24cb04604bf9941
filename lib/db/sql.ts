import { and, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db/client";

/**
 * A uuid[] parameter. drizzle's postgres.js driver cannot bind JS arrays, so the ids travel as one
 * array literal. For reading a project's rows by id, prefer `rowsById`: `project_id = $p and id =
 * any($1::uuid[])` is planned from the table's statistics, and with them stale or missing (a table
 * filling fast, or autovacuum off) the planner took another index on project_id and read every row of
 * the project to find twenty (lib/db/probe-plans.int.test.ts).
 */
export function uuidArray(ids: string[]): SQL {
  return sql`${`{${ids.join(",")}}`}::uuid[]`;
}

/**
 * The rows of a project's table (keyed by `(project_id, id)`) whose ids are in `ids` (a uuid[]
 * expression), as `alias`: one primary-key probe per id, a nested loop over the ids that no estimate
 * can turn into a scan of the project (OFFSET 0 keeps the probe from being flattened into a join the
 * planner could reorder). `lock` locks each row as it is probed: in id order when `ids` is sorted, which
 * is how writers of the same records queue instead of deadlocking; "update skip locked" leaves out the
 * rows another transaction holds. `tid` adds the row's ctid as `_tid`, for an update of exactly these
 * rows by TID scan (`where ctid = any(...)`) while this transaction holds their locks, so they cannot
 * move. An id with no row yields nothing.
 */
export function rowsById(
  table: string,
  projectId: string,
  ids: SQL,
  alias: string,
  opts: { lock?: RowLock; tid?: boolean } = {},
): SQL {
  const k = sql.raw(`${alias}_k`);
  return sql`unnest(${ids}) as ${k}(id) cross join lateral (
    select ${opts.tid ? sql`t.ctid as _tid, ` : sql``}t.* from ${sql.identifier(table)} t where t.project_id = ${projectId}::uuid and t.id = ${k}.id offset 0${opts.lock ? sql.raw(` for ${opts.lock}`) : sql``}) ${sql.raw(alias)}`;
}

/**
 * rowsById for drizzle: the rows of `table` with these ids, typed and decoded as `select().from(table)`
 * gives them (camelCase, Dates), found by one primary-key probe per id. LIMIT 1 (each id names at most
 * one row) keeps the lateral probe from being flattened into a join the planner could reorder.
 */
export async function selectByIds<T extends PgTable & { projectId: PgColumn; id: PgColumn }>(
  db: DbOrTx,
  table: T,
  projectId: string,
  ids: string[],
  /** A further condition on each probe (a time bound that lets a partitioned table skip partitions). */
  also?: SQL,
): Promise<T["$inferSelect"][]> {
  if (!ids.length) return [];
  const probe = db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.projectId, projectId), sql`${table.id} = probe_k.id`, also))
    .limit(1)
    .as("probe");
  // The probe's own fields, so the driver's values are decoded by the table's columns.
  const fields = Object.fromEntries(
    Object.keys(getTableColumns(table)).map((k) => [k, probe[k as keyof typeof probe]]),
  ) as Record<string, PgColumn>;
  const rows = await db
    .select(fields)
    .from(sql`unnest(${uuidArray([...new Set(ids)])}) as probe_k(id)`)
    .crossJoinLateral(probe);
  return rows as T["$inferSelect"][];
}

export type RowLock = "update" | "key share" | "update skip locked";

/** A tid[] parameter: row addresses read under this transaction's locks (rowsById's `_tid`), for a TID scan. */
export function tidArray(tids: string[]): SQL {
  return sql`${`{${tids.map((t) => `"${t}"`).join(",")}}`}::tid[]`;
}

/**
 * Runs a raw statement and returns its rows typed as `T`. The one place raw rows get a type: `T`
 * states the select list (column aliases as written in the SQL; the driver does no case mapping), and
 * PostgreSQL types arrive as the postgres.js driver parses them under drizzle (timestamps as strings).
 */
export async function queryRows<T extends object>(db: DbOrTx, query: SQL): Promise<T[]> {
  // The driver cannot know a raw statement's columns; this is the single place that asserts them.
  return (await db.execute(query)) as unknown as T[];
}
