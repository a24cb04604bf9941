import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz, uuidV7 } from "./columns";
import { projectIdColumn } from "./project-column";

/**
 * Accepted events waiting for the worker (the durable half of a 202). The intake endpoint writes here in
 * one statement; the worker claims rows with FOR UPDATE SKIP LOCKED, records them in `events` and deletes
 * them in one transaction. `recorded` rows are system events already in `events` (written in their cause's
 * transaction): the worker only starts steps 2-4 for them. A queue table, so no foreign keys.
 */
export const eventIntake = pgTable(
  "event_intake",
  {
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    kind: text().$type<"user" | "organization">().notNull(),
    name: text().notNull(),
    identifier: jsonb().$type<{ source: string; external_id: string; metadata?: Record<string, unknown> }[]>(),
    match: jsonb().$type<Record<string, unknown>>(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    clientId: text(),
    occurredAt: timestamptz({ precision: 3 }).notNull().defaultNow(),
    receivedAt: timestamptz({ precision: 3 }).notNull().defaultNow(),
    recorded: boolean().notNull().default(false),
    /** Set when this row alone made its batch fail (a poison row): kept for inspection, no longer claimed. */
    failedAt: timestamptz(),
    error: text(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("event_intake_failed_idx").on(t.projectId, t.failedAt).where(sql`${t.failedAt} is not null`),
  ],
);

/** Client event ids seen in the last 7 days, for de-duplication at intake. Purged by the worker's tick. */
export const eventClientIds = pgTable(
  "event_client_ids",
  {
    projectId: uuid().notNull(),
    clientId: text().notNull(),
    receivedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.clientId] }), index("event_client_ids_received_idx").on(t.receivedAt)],
);

/**
 * One row per (batch, step) done: written in the transaction of the step's effect, so a retried or
 * duplicated job finds it and writes nothing twice.
 */
export const pipelineStepsDone = pgTable(
  "pipeline_steps_done",
  {
    projectId: uuid().notNull(),
    batchId: uuid().notNull(),
    step: text().notNull(),
    doneAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.batchId, t.step] }), index("pipeline_steps_done_at_idx").on(t.doneAt)],
);

/** A `match` event being fanned out: the keyset cursor persists progress so a killed worker resumes. */
export const eventFanouts = pgTable(
  "event_fanouts",
  {
    projectId: projectIdColumn(),
    id: uuid().notNull(),
    kind: text().$type<"user" | "organization">().notNull(),
    name: text().notNull(),
    match: jsonb().$type<Record<string, unknown>>().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    clientId: text(),
    occurredAt: timestamptz({ precision: 3 }).notNull(),
    receivedAt: timestamptz({ precision: 3 }).notNull(),
    cursor: uuid(),
    delivered: integer().notNull().default(0),
    // Admission against the project's hourly quota (lib/pipeline/fanout-quota.ts): how many records the
    // filter matched when admitted, or why it was refused (then finished without delivering).
    planned: integer(),
    refusal: text(),
    finishedAt: timestamptz(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("event_fanouts_open_idx").on(t.projectId).where(sql`${t.finishedAt} is null`),
  ],
);

/** The discovered schema (pipeline step 2): one row per event name and property path. */
export const eventSchema = pgTable(
  "event_schema",
  {
    projectId: projectIdColumn(),
    eventName: text().notNull(),
    path: text().notNull(),
    types: text().array().notNull(),
    count: bigint({ mode: "number" }).notNull(),
    firstSeen: timestamptz({ precision: 3 }).notNull(),
    lastSeen: timestamptz({ precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.eventName, t.path] })],
);

export type EventIntakeRow = typeof eventIntake.$inferSelect;
export type EventFanout = typeof eventFanouts.$inferSelect;
