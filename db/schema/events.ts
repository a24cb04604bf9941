import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz, uuidV7 } from "./columns";

/**
 * Recorded occurrences (pipeline step 1). Partitioned by `occurred_at` (weekly ranges, a default
 * partition for the rest: lib/events/partitions.ts, migration events_partitioned), so the primary key
 * includes it: a partitioned table's unique keys must contain the partition key. No foreign keys to projects, users or organizations: this is the hot,
 * append-mostly table, and erasing a user deletes its rows explicitly by (project_id, user_id).
 * `id` is the pipeline's idempotency key: every step is keyed by it.
 */
export const events = pgTable(
  "events",
  {
    // No foreign key to projects either (see users in ./end-users.ts).
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    name: text().notNull(),
    userId: uuid(),
    organizationId: uuid(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** `system` for events the service emits, `client` for ingested ones. */
    origin: text().$type<"system" | "client">().notNull().default("system"),
    /** The client's own event id, for 7-day de-duplication. */
    clientId: text(),
    occurredAt: timestamptz({ precision: 3 }).notNull().defaultNow(),
    receivedAt: timestamptz({ precision: 3 }).notNull().defaultNow(),
  },
  // Time indexes are ascending and read backward for newest-first (db/migrations/0020_ascending_time_indexes.sql:
  // times only grow, and a descending index would take every insert at its leftmost, half-filled leaf).
  (t) => [
    primaryKey({ columns: [t.projectId, t.id, t.occurredAt] }),
    index("events_project_time_idx").on(t.projectId, t.occurredAt, t.id),
    index("events_user_idx").on(t.projectId, t.userId, t.occurredAt).where(sql`${t.userId} is not null`),
    // A user's events of one name, newest first: what an event rule counts (lib/lists/rules.ts) and what
    // explain shows, in a range as long as the answer, not the user's whole history
    // (docs/decisions/0016-events-by-user-and-name.md).
    index("events_user_name_idx").on(t.projectId, t.userId, t.name, t.occurredAt).where(sql`${t.userId} is not null`),
    index("events_org_idx").on(t.projectId, t.organizationId, t.occurredAt).where(sql`${t.organizationId} is not null`),
    index("events_name_idx").on(t.projectId, t.name, t.occurredAt),
  ],
);

export type EventRow = typeof events.$inferSelect;
