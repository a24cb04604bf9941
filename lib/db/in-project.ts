import { and, eq, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/**
 * The rows of `table` in the context's project that also meet `conditions` (an `undefined` one is left
 * out, as `and` does): every query is scoped by project, and this writes the scope once.
 */
export function inProject(
  ctx: { projectId: string },
  table: { projectId: PgColumn },
  ...conditions: (SQL | undefined)[]
): SQL {
  return and(eq(table.projectId, ctx.projectId), ...conditions) as SQL;
}
