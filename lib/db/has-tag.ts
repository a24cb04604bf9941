import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/** The filter for `?tag=` over a `text[]` column (lib/http/tags.ts); no filter without a tag. */
export function hasTag(column: PgColumn | SQL, tag: string | undefined): SQL | undefined {
  return tag === undefined ? undefined : sql`${tag} = any(${column})`;
}
