import { sql } from "drizzle-orm";
import { timestamp, uuid } from "drizzle-orm/pg-core";

/** Time-ordered UUIDv7 made in SQL (PostgreSQL 15 has no uuidv7(); migration 0000 defines this function). */
export const uuidV7 = (name?: string) => (name ? uuid(name) : uuid()).default(sql`uuid_generate_v7()`);

/** Every time column is a `timestamptz`; `precision: 3` keeps exactly the milliseconds a JavaScript Date holds. */
export const timestamptz = (opts: { precision?: 3 } = {}) => timestamp({ withTimezone: true, ...opts });

export const createdAt = () => timestamptz().notNull().defaultNow();
export const updatedAt = () => timestamptz().notNull().defaultNow();
