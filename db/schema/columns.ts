import { sql } from "drizzle-orm";
import { timestamp, uuid } from "drizzle-orm/pg-core";

/** Time-ordered UUIDv7 made in SQL (PostgreSQL 15 has no uuidv7(); migration 0000 defines this function). */
export const uuidV7 = (name?: string) => (name ? uuid(name) : uuid()).default(sql`uuid_generate_v7()`);

export const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
