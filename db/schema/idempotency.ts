import { index, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { messages } from "./messages";
import { belongsTo, projectIdColumn } from "./project-column";

/**
 * An `Idempotency-Key` of the send API, per project, kept 24 hours (swept by the worker's retention loop).
 * Inserted in the transaction that makes the message, so a concurrent second request with the same key
 * waits on the primary key and then reads this row: one message per key, whatever the timing. `request_hash`
 * is the SHA-256 of the request's canonical body (another body with the key is refused); `answer` is the
 * first answer, given again to every retry.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    projectId: projectIdColumn(),
    key: text().notNull(),
    requestHash: text().notNull(),
    messageId: uuid().notNull(),
    answer: jsonb().$type<{ id: string; state: string }>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
    belongsTo(t.projectId, t.messageId, messages),
  ],
);

export type IdempotencyKey = typeof idempotencyKeys.$inferSelect;
