import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt, uuidV7 } from "./columns";
import { belongsTo, projectIdColumn } from "./project-column";
import { users } from "./end-users";

/** A journey: its entrances, its steps (addressed by stable keys) and its entries. */
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
    /** The steps as the API takes them (lib/journeys/steps.ts); `[]`: entries stay where they entered. */
    steps: jsonb().$type<unknown[]>().notNull().default([]),
    /** Holds every entry where it is: the due claim passes over a paused journey's entries. */
    paused: boolean().notNull().default(false),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
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
    /** The step the entry is at (null: a journey without steps, or exited). */
    stepKey: text(),
    /** `active`: due to run its step; `waiting`: at its step until `wakeAt` or what it waits for; `exited`. */
    state: text().$type<"active" | "waiting" | "exited">().notNull().default("active"),
    /** When the due claim takes the entry (a delay's end, a wait's timeout, now); null: nothing timed. */
    wakeAt: timestamptz(),
    /** What the entry waits for, as shown (`{kind: "delay", until, zone}`, `{kind: "event", …}`, `{kind: "message", id}`). */
    waitingFor: jsonb().$type<Record<string, unknown>>(),
    /** An awaited event's name (a list wait awaits `list.user.added` / `list.user.removed`). */
    waitEvent: text(),
    /** The awaited event's match key: the user and, for `same_as`, the key and the entering event's value there. */
    waitKey: text(),
    /** When the entry reached its current step. */
    stepSince: timestamptz(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    // Once per (journey, user, event); user first, so it also finds a user event's entries (the trace) and
    // whether a user ever entered a journey. No index leads with the event: every exit writes a new entry
    // into each of the entry's indexes, and one by event cost a burst of exits a quarter of its rate
    // (docs/decisions/0025).
    uniqueIndex("journey_entries_event_uq").on(t.projectId, t.userId, t.journeyId, t.eventId),
    // A user's entries newest first (timeline keyset, explain's past entries). Their exits are shown from
    // the exits' events: an index of exits would be written by every exit (docs/decisions/0025).
    index("journey_entries_user_idx").on(t.projectId, t.userId, t.enteredAt, t.id),
    // "Is this user in this journey now": entering (allow_concurrent_runs) and explain ask it; without it the
    // answer reads every past entry of the user in the journey.
    index("journey_entries_active_idx").on(t.projectId, t.journeyId, t.userId).where(sql`${t.exitedAt} is null`),
    // The due claim: entries whose time has come, oldest first (lib/journeys/advance-due.ts).
    index("journey_entries_due_idx").on(t.wakeAt).where(sql`${t.wakeAt} is not null`),
    // An event a wait awaits, found by the pipeline's journeys step by key, never by scanning waits.
    index("journey_entries_wait_idx").on(t.projectId, t.waitEvent, t.waitKey).where(sql`${t.waitEvent} is not null`),
    // Who waits at a step now (the console's step list, per-step counts); by id, so an edit's batches
    // (lib/journeys/apply-step-edits.ts) walk a step's entries in pages without sorting them.
    index("journey_entries_step_idx")
      .on(t.projectId, t.journeyId, t.stepKey, t.id)
      .where(sql`${t.stepKey} is not null`),
    belongsTo(t.projectId, t.journeyId, journeys),
    belongsTo(t.projectId, t.userId, users),
  ],
);

/** An entry's path: each step it passed, when, and how it came out (`delayed until …`, `branch: true`). */
export const journeyEntrySteps = pgTable(
  "journey_entry_steps",
  {
    projectId: uuid().notNull(),
    /** The row's own id: the user timeline's items are (time, id). */
    id: uuidV7().notNull(),
    entryId: uuid().notNull(),
    userId: uuid().notNull(),
    /** Its place in the path: 1, 2, … */
    seq: integer().notNull(),
    journeyId: uuid().notNull(),
    stepKey: text().notNull(),
    kind: text().notNull(),
    enteredAt: timestamptz().notNull(),
    leftAt: timestamptz().notNull().defaultNow(),
    outcome: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.entryId, t.seq] }),
    // A user's timeline: the steps they passed, newest first.
    index("journey_entry_steps_user_idx").on(t.projectId, t.userId, t.leftAt, t.id),
    // No foreign key to the entry: a statement-level trigger deletes the path with its entry (migration
    // 0039, docs/decisions/0004), and the one writer (lib/journeys/write-moves.ts) holds the entries'
    // row locks when it appends.
  ],
);

/**
 * Per step, how many entries passed it in all: kept by the one writer of paths (write-moves.ts) in the
 * same transaction, so the journey view reads a few rows instead of counting the whole history. Each
 * batch adds to one of a few shards, so concurrent claimers rarely wait for each other's row lock.
 */
export const journeyStepPasses = pgTable(
  "journey_step_passes",
  {
    projectId: uuid().notNull(),
    journeyId: uuid().notNull(),
    stepKey: text().notNull(),
    shard: smallint().notNull(),
    passed: bigint({ mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.journeyId, t.stepKey, t.shard] }),
    // No foreign key to the journey: its check would key-share lock the journey row while the claim holds
    // entries an edit (which holds the journey) may wait for. A statement-level trigger deletes a deleted
    // journey's counts (migration 0040); a count a racing claim adds for it is never read.
  ],
);

export type Journey = typeof journeys.$inferSelect;
export type JourneyEntrance = typeof journeyEntrances.$inferSelect;
export type JourneyEntry = typeof journeyEntries.$inferSelect;

/**
 * An edit of a live journey's steps whose entries are not all brought in line yet: the steps before it
 * (where a removed step led) and the keys whose entries it concerns (removed steps, waits that became
 * another kind, waits whose event or list changed). The worker applies it in batches from `cursor_key` /
 * `cursor_id` on, then deletes it (lib/journeys/apply-step-edits.ts); oldest first (ids are uuid v7).
 */
export const journeyEdits = pgTable(
  "journey_edits",
  {
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    journeyId: uuid().notNull(),
    before: jsonb().$type<unknown[]>().notNull(),
    keys: jsonb().$type<string[]>().notNull(),
    /** The step key being worked through, and the last entry id done there (null: from its first). */
    cursorKey: text(),
    cursorId: uuid(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] }), belongsTo(t.projectId, t.journeyId, journeys)],
);
