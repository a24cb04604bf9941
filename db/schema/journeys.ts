import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt, uuidV7 } from "./columns";
import { belongsTo, projectIdColumn } from "./project-column";
import { users } from "./end-users";

/** A journey: only its entrances and entries; what happens after entry belongs to a later issue. */
export const journeys = pgTable(
  "journeys",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    name: text().notNull(),
    /** A user may enter more than once over time. */
    allowMultipleEntries: boolean().notNull().default(false),
    /** A user may hold several active (not exited) entries at once. */
    allowConcurrentRuns: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

/**
 * How users enter. `event`: an event name, an optional condition on its data and, for organization
 * events, an optional user rule filtering the members. `scheduled`: a schedule definition and one of its
 * offsets (plain uuids: schedules are another concept's tables); matched against `scheduled.*` events'
 * `schedule_id` and `schedule_offset_id`.
 */
export const journeyEntrances = pgTable(
  "journey_entrances",
  {
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    journeyId: uuid().notNull(),
    kind: text().$type<"event" | "scheduled">().notNull(),
    eventName: text(),
    condition: jsonb().$type<unknown>(),
    userRule: jsonb().$type<unknown>(),
    scheduleId: uuid(),
    scheduleOffsetId: uuid(),
    dataKey: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("journey_entrances_event_idx").on(t.projectId, t.eventName),
    index("journey_entrances_schedule_idx").on(t.projectId, t.scheduleId, t.scheduleOffsetId),
    belongsTo(t.projectId, t.journeyId, journeys),
  ],
);

/** One entry of a user into a journey, with the triggering event's data as context. */
export const journeyEntries = pgTable(
  "journey_entries",
  {
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    journeyId: uuid().notNull(),
    entranceId: uuid().notNull(),
    userId: uuid().notNull(),
    eventId: uuid().notNull(),
    context: jsonb().$type<Record<string, unknown>>().notNull(),
    /**
     * Whether the user could be sent to on each channel when they entered (`{email, sms, push}`): a
     * contact for it and no whole-channel opt-out. A sender consuming entries filters on it without a
     * second call; a group's own state is still `canSend`'s to decide per message.
     */
    sendable: jsonb()
      .$type<Record<"email" | "sms" | "push", boolean>>()
      .notNull()
      .default({ email: false, sms: false, push: false }),
    enteredAt: timestamptz().notNull().defaultNow(),
    exitedAt: timestamptz(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex("journey_entries_event_uq").on(t.projectId, t.journeyId, t.userId, t.eventId),
    // A user's entries newest first (timeline keyset, explain's past entries) and exits likewise.
    index("journey_entries_user_idx").on(t.projectId, t.userId, t.enteredAt, t.id),
    index("journey_entries_user_exit_idx")
      .on(t.projectId, t.userId, t.exitedAt, t.id)
      .where(sql`${t.exitedAt} is not null`),
    // An event's trace: the entries it made.
    index("journey_entries_event_idx").on(t.projectId, t.eventId),
    // "Is this user in this journey now": entering (allow_concurrent_runs) and explain ask it; without it the
    // answer reads every past entry of the user in the journey.
    index("journey_entries_active_idx").on(t.projectId, t.journeyId, t.userId).where(sql`${t.exitedAt} is null`),
    belongsTo(t.projectId, t.journeyId, journeys),
    belongsTo(t.projectId, t.userId, users),
  ],
);

export type Journey = typeof journeys.$inferSelect;
export type JourneyEntrance = typeof journeyEntrances.$inferSelect;
export type JourneyEntry = typeof journeyEntries.$inferSelect;
