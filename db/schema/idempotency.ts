import { index, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { projectIdColumn } from "./project-column";

/**
 * An `Idempotency-Key` of the send API, per project, honoured 24 hours (then swept by the worker's retention
 * loop). Inserted first in the transaction that makes the message, so a concurrent second request with the
 * same key waits on the primary key and then reads this row: one message per key, whatever the timing.
 * `request_id` is the message's cause (`messages.api_request_id`); `request_hash` the SHA-256 of the
 * request's canonical body (another body with the key is refused); `answer` the first answer, given again
 * to every retry (null only inside the transaction that writes it). No foreign key to the message: the row
 * is written before it, and holds nothing about the user.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    projectId: projectIdColumn(),
    key: text().notNull(),
    requestHash: text().notNull(),
    requestId: uuid().notNull(),
    answer: jsonb().$type<{ id: string; state: string }>(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

export type IdempotencyKey = typeof idempotencyKeys.$inferSelect;
