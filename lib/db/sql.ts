import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";

/**
 * A uuid[] parameter. drizzle's postgres.js driver cannot bind JS arrays, so the ids travel as one
 * array literal; `id = any($1::uuid[])` with the project id keeps every lookup on the primary key
 * whatever the planner knows about the tables (freshly bulk-loaded tables have no statistics).
 */
export function uuidArray(ids: string[]): SQL {
  return sql`${`{${ids.join(",")}}`}::uuid[]`;
}

/** A list of rows as a SQL relation (one jsonb parameter), for INSERT ... SELECT sources. */
export function rowsSql(rows: Record<string, unknown>[], columns: string): SQL {
  return sql`(select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(${sql.raw(columns)}))`;
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
