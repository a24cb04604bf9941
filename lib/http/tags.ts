import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";

export const MAX_TAGS = 20;
export const MAX_TAG_CHARS = 50;

/** Labels on templates, broadcasts, journeys and lists: at most 20, each 1 to 50 characters, kept once each. */
export const tagList = z
  .array(z.string().trim().min(1).max(MAX_TAG_CHARS))
  .max(MAX_TAGS)
  .transform((tags) => [...new Set(tags)])
  .meta({ id: "Tags", description: `At most ${MAX_TAGS} labels of 1 to ${MAX_TAG_CHARS} characters.` });

/** `?tag=`: only the records carrying this tag. */
export const tagFilter = z.string().trim().min(1).max(MAX_TAG_CHARS).optional();

/** The filter for `?tag=` over a `text[]` column. */
export function hasTag(column: PgColumn | SQL, tag: string | undefined): SQL | undefined {
  return tag === undefined ? undefined : sql`${tag} = any(${column})`;
}
