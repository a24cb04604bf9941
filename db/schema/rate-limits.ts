import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/**
 * Rate-limit counters shared by every web instance when RATE_LIMIT_STORE=postgres. The shape is the one
 * rate-limiter-flexible's RateLimiterDrizzle reads and upserts (key, points, expire); rows past `expire`
 * are dead and the library deletes them an hour later.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text().primaryKey(),
  points: integer().notNull(),
  expire: timestamptz(),
});
