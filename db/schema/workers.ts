import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per running worker process, refreshed every few seconds. Readiness checks that some worker beat
 * within 30 s; rows of workers gone for a day are deleted by the next worker to beat. Not an end-user table.
 */
export const workerHeartbeats = pgTable("worker_heartbeats", {
  id: text().primaryKey(),
  hostname: text().notNull(),
  pid: integer().notNull(),
  startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  seenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
