import { index, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz, uuidV7 } from "./columns";
import { projectIdColumn } from "./project-column";

/**
 * Every list membership change, written when it is decided (lib/lists/apply-membership.ts), in the same
 * statement set as the change: which list, added or removed, and why: the event whose arrival re-evaluated
 * the user (`cause_event_id`), a rebuild of the list (rules changed, window refresh), or a hand edit of a
 * static list (`actor`). The explain, trace and timeline endpoints read it; nothing recomputes it.
 * No foreign key to the list (a history outlives its list) nor the user (erasing a user deletes its rows
 * explicitly, lib/users/delete-user.ts); deleting the project deletes them.
 */
export const listChanges = pgTable(
  "list_changes",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    listId: uuid().notNull(),
    userId: uuid().notNull(),
    change: text().$type<"added" | "removed">().notNull(),
    /** `event`: an event's arrival; `rebuild`: the list's rules or window re-evaluated; `manual`: a static list edited. */
    cause: text().$type<"event" | "rebuild" | "manual">().notNull(),
    causeEventId: uuid(),
    /** Who made a manual change: `{kind: admin, email}` or `{kind: api_key, key_id}`. */
    actor: jsonb().$type<Record<string, unknown>>(),
    at: timestamptz({ precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    // A user's timeline (newest first, keyset on (at, id)) and "why is this user (not) in this list".
    index("list_changes_user_idx").on(t.projectId, t.userId, t.at, t.id),
    index("list_changes_list_user_idx").on(t.projectId, t.listId, t.userId, t.at),
    // An event's trace: the changes it caused.
    index("list_changes_event_idx").on(t.projectId, t.causeEventId),
  ],
);

/**
 * The records an event created when it was recorded (its identifiers named nobody yet): the trace's
 * "attached to a new record". Written by the intake drain only for creations, so one row per new record.
 */
export const eventCreatedRecords = pgTable(
  "event_created_records",
  {
    projectId: projectIdColumn(),
    eventId: uuid().notNull(),
    kind: text().$type<"user" | "organization">().notNull(),
    recordId: uuid().notNull(),
    at: timestamptz({ precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.eventId] })],
);

export type ListChange = typeof listChanges.$inferSelect;
