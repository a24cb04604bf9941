import { sql } from "drizzle-orm";
import { bigint, check, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt, uuidV7 } from "./columns";
import { belongsTo, projectIdColumn } from "./project-column";

/*
 * Schedules (docs/decisions/0022). Intervals are stored as the text the caller wrote ("7 days",
 * "1 month") and cast to PostgreSQL intervals where arithmetic happens, so the API shows them back
 * as written while all time arithmetic stays in SQL.
 */

export const schedules = pgTable(
  "schedules",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    name: text().notNull(),
    type: text().$type<"single" | "recurring">().notNull(),
    /** `anniversary` is built in: created with the project, cannot be deleted. */
    builtin: text().$type<"anniversary">(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex("schedules_name_key").on(t.projectId, t.name),
    check("schedules_type_check", sql`${t.type} in ('single', 'recurring')`),
  ],
);

export const scheduleOffsets = pgTable(
  "schedule_offsets",
  {
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    scheduleId: uuid().notNull(),
    /** As written by the caller, e.g. `7 days`. */
    offset: text().notNull(),
    /** PostgreSQL's canonical spelling (`'1 week'::interval::text` is `7 days`): the duplicate check. */
    offsetKey: text().notNull(),
    direction: text().$type<"before" | "after">().notNull(),
    /**
     * Offsets added to a definition that already has assignments get their firings from a background
     * job, sent with the offset: `queued` while it pages through assignments (resuming after
     * `backfill_cursor`), null when done or never needed. (Older versions also wrote `pending`.)
     */
    backfill: text().$type<"queued">(),
    backfillCursor: uuid(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex("schedule_offsets_key").on(t.projectId, t.scheduleId, t.offsetKey, t.direction),
    belongsTo(t.projectId, t.scheduleId, schedules),
    check("schedule_offsets_direction_check", sql`${t.direction} in ('before', 'after')`),
  ],
);

export type AssignmentState = "active" | "paused" | "fired";

/**
 * One per (user or organization, schedule). Recurring occurrences are `anchor + cycle * interval`,
 * always computed from the anchor so month ends never drift; `occurrence_at` caches the current one.
 */
export const scheduleAssignments = pgTable(
  "schedule_assignments",
  {
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    scheduleId: uuid().notNull(),
    userId: uuid(),
    organizationId: uuid(),
    state: text().$type<AssignmentState>().notNull().default("active"),
    /** Recurring only, as written (`1 month`). Null for single schedules. */
    interval: text(),
    /** Single: the scheduled time. Recurring: start_at, or the resume time after a rebase. */
    anchor: timestamptz({ precision: 3 }).notNull(),
    // bigint: a one-second test interval over fifty years passes 2^31 cycles.
    cycle: bigint({ mode: "number" }).notNull().default(0),
    occurrenceAt: timestamptz({ precision: 3 }).notNull(),
    /** How the last pause was asked for; kept for display. */
    pauseMode: text().$type<"immediately" | "after_next_interval">(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex("schedule_assignments_user_key")
      .on(t.projectId, t.userId, t.scheduleId)
      .where(sql`${t.userId} is not null`),
    uniqueIndex("schedule_assignments_org_key")
      .on(t.projectId, t.organizationId, t.scheduleId)
      .where(sql`${t.organizationId} is not null`),
    index("schedule_assignments_schedule_idx").on(t.projectId, t.scheduleId, t.id),
    /*
     * No foreign keys to schedules, users or organizations: every new record inserts an assignment, and
     * a per-row foreign-key check (a trigger call and a row lock each) cost about as much as the insert.
     * Deleting a schedule, user or organization still deletes its assignments, by statement-level
     * triggers (migration 0019), and every writer takes the parents' key-share locks itself, once per
     * statement: see db/migrations/0019_schedule_cascade_triggers.sql.
     */
    check("schedule_assignments_subject_check", sql`(${t.userId} is null) <> (${t.organizationId} is null)`),
  ],
);

export type FiringState = "pending" | "fired" | "skipped" | "failed";

/**
 * Materialized firings: one per (assignment, offset, cycle). Fired and skipped rows are kept so a
 * re-run of the offset backfill cannot make a firing twice, and so skipped (missed) firings are counted.
 */
export const scheduleFirings = pgTable(
  "schedule_firings",
  {
    projectId: uuid().notNull(),
    assignmentId: uuid().notNull(),
    offsetId: uuid().notNull(),
    cycle: bigint({ mode: "number" }).notNull(),
    fireAt: timestamptz({ precision: 3 }).notNull(),
    state: text().$type<FiringState>().notNull().default("pending"),
    /** Wall-clock time the firing batch recorded it (clock_timestamp(), not the injectable `now`): lag = fired_at - fire_at. */
    firedAt: timestamptz({ precision: 3 }),
    eventId: uuid(),
  },
  (t) => [
    /*
     * A firing is named by what it is (no surrogate id: none is shown anywhere, and every new user's
     * anniversary firing paid for drawing one and for a second unique index). The key's prefix
     * (project, assignment, offset) also serves deletes by offset, reached through the schedule's
     * assignments (migration 0024), so no index by offset is kept either.
     */
    primaryKey({ name: "schedule_firings_key", columns: [t.projectId, t.assignmentId, t.offsetId, t.cycle] }),
    /*
     * The firing loop's queue: due firings across all projects, oldest first. This is the one hot index
     * that does not start with project_id, on purpose: the loop serves every project from one scan.
     */
    index("schedule_firings_due_idx").on(t.fireAt).where(sql`${t.state} = 'pending'`),
    // No foreign keys either (same reason); deleting an assignment or an offset deletes its firings by trigger.
  ],
);

export type Schedule = typeof schedules.$inferSelect;
export type ScheduleOffset = typeof scheduleOffsets.$inferSelect;
export type ScheduleAssignment = typeof scheduleAssignments.$inferSelect;
export type ScheduleFiring = typeof scheduleFirings.$inferSelect;
