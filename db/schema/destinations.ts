import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt, uuidV7 } from "./columns";
import { belongsTo, projectIdColumn } from "./project-column";

/**
 * A webhook endpoint events leave Relay for (Standard Webhooks). The signing secret is sealed
 * (lib/signing/seal.ts): it must be read back to sign, so it cannot be a hash. During a rotation the
 * previous secret keeps signing until `previous_secret_until`.
 */
export const destinations = pgTable(
  "destinations",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    name: text().notNull(),
    url: text().notNull(),
    /** Exact names and patterns (`*`, `list.*`). */
    events: text().array().notNull(),
    /** Containment on the event's data (`data @> filter`), as `match` works; null: every event. */
    filter: jsonb().$type<Record<string, unknown>>(),
    enabled: boolean().notNull().default(true),
    /** Why the service turned it off (410, failing for days); null when an admin did or it is on. */
    disabledReason: text(),
    secretSealed: text().notNull(),
    previousSecretSealed: text(),
    previousSecretUntil: timestamptz(),
    /** The first failed attempt since the last success; a destination failing for 3 days is turned off. */
    failingSince: timestamptz(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

/**
 * One message to one destination (the log). Its id is the `webhook-id` of every attempt. The payload is
 * made when the pipeline decides the delivery, so every attempt sends the same bytes' content.
 * `next_attempt_at` is also the lease: a sender claiming it pushes it past its timeout, so a killed
 * sender's delivery comes due again by itself.
 */
export const destinationDeliveries = pgTable(
  "destination_deliveries",
  {
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    destinationId: uuid().notNull(),
    eventId: uuid(),
    eventName: text().notNull(),
    userId: uuid(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    state: text().$type<"pending" | "delivered" | "failed">().notNull().default("pending"),
    /** Failed attempts since it was decided or last retried by hand: the index into the retry schedule. */
    tries: smallint().notNull().default(0),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamptz(),
    lastStatus: integer(),
    lastError: text(),
    createdAt: createdAt(),
    finishedAt: timestamptz(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("destination_deliveries_due_idx")
      .on(t.projectId, t.destinationId, t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
    index("destination_deliveries_log_idx").on(t.projectId, t.destinationId, t.id),
    index("destination_deliveries_event_idx").on(t.projectId, t.eventId),
    // The user timeline reads deliveries newest first by (created_at, id).
    index("destination_deliveries_user_idx").on(t.projectId, t.userId, t.createdAt, t.id),
    index("destination_deliveries_created_idx").on(t.createdAt),
    belongsTo(t.projectId, t.destinationId, destinations),
  ],
);

/** One HTTP attempt of a delivery: when, the status (null: no answer), latency and the answer's first 1 KiB. */
export const destinationAttempts = pgTable(
  "destination_attempts",
  {
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    deliveryId: uuid().notNull(),
    destinationId: uuid().notNull(),
    attemptedAt: timestamptz().notNull(),
    status: integer(),
    latencyMs: integer().notNull(),
    response: text(),
    error: text(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("destination_attempts_delivery_idx").on(t.projectId, t.deliveryId),
    index("destination_attempts_health_idx").on(t.projectId, t.destinationId, t.attemptedAt),
    belongsTo(t.projectId, t.deliveryId, destinationDeliveries),
  ],
);

export type Destination = typeof destinations.$inferSelect;
export type DestinationDelivery = typeof destinationDeliveries.$inferSelect;
export type DestinationAttempt = typeof destinationAttempts.$inferSelect;
