import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/**
 * One row per running worker process, refreshed every few seconds. Readiness checks that some worker beat
 * within 30 s; rows of workers gone for a day are deleted by the next worker to beat. Not an end-user table.
 */
export const workerHeartbeats = pgTable("worker_heartbeats", {
  id: text().primaryKey(),
  hostname: text().notNull(),
  pid: integer().notNull(),
  startedAt: timestamptz().notNull().defaultNow(),
  seenAt: timestamptz().notNull().defaultNow(),
});
