import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, uuidV7 } from "./columns";
import type { SendChannel } from "./messages";
import { messages } from "./messages";
import { belongsTo, projectIdColumn } from "./project-column";

export type MessageEventKind = "delivered" | "deferred" | "bounced" | "complained";
export type FeedbackSource = "smtp" | "sendgrid" | "mailgun" | "postmark" | "ses" | "twilio";
export type SuppressionReason = "hard_bounce" | "soft_bounces" | "complaint" | "carrier" | "manual";

/**
 * Where a message stands after its reports: not stored, but its strongest report (lib/feedback/delivery-rank.ts),
 * so recording a report writes its event and nothing on the message.
 */
export interface MessageDelivery {
  state: MessageEventKind;
  type?: "hard" | "soft";
  code?: string | null;
  reason?: string | null;
  at: string;
}

/**
 * What a report said about one sent message (a DSN, an ARF complaint, a provider's webhook, a Twilio
 * status callback). `dedupe_key` is unique per message and made from what identifies the report at its
 * source (the provider's event id, the DSN's recipient and status), so a service's retry of the same report
 * finds its row and records nothing again. `address` is the recipient reported on, for the soft-bounce
 * count of the project's bounce policy. The strongest of a message's events is its delivery (deliveryRank).
 */
export const messageEvents = pgTable(
  "message_events",
  {
    // No key of its own to the project: an event goes with its message (belongsTo), and the message with
    // the project, so a second check per inserted row would guard nothing.
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    messageId: uuid().notNull(),
    kind: text().$type<MessageEventKind>().notNull(),
    at: timestamptz().notNull().defaultNow(),
    source: text().$type<FeedbackSource>().notNull(),
    detail: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    dedupeKey: text().notNull(),
    address: text(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    // Also how a message's events are read (its delivery, its event list, the messages log's filter): by
    // its leading (project, message). A message has a handful of events, so a second index by time would
    // only cost every insert.
    uniqueIndex("message_events_dedupe_uq").on(t.projectId, t.messageId, t.dedupeKey),
    // The bounce policy counts an address's soft bounces in a window without reading its other events.
    index("message_events_soft_idx")
      .on(t.projectId, t.address, t.at)
      .where(sql`${t.kind} = 'bounced' and ${t.detail}->>'type' = 'soft'`),
    belongsTo(t.projectId, t.messageId, messages),
  ],
);

/**
 * Addresses of a project no message goes to (decideSkip: `suppressed`), one row per channel and address
 * (lower-cased e-mail, the number as sent), with the reason and the message whose report caused it.
 */
export const suppressions = pgTable(
  "suppressions",
  {
    projectId: projectIdColumn(),
    channel: text().$type<SendChannel>().notNull(),
    address: text().notNull(),
    reason: text().$type<SuppressionReason>().notNull(),
    source: text().notNull(),
    messageId: uuid(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.channel, t.address] }),
    index("suppressions_created_idx").on(t.projectId, t.createdAt, t.address),
  ],
);

export type MessageEvent = typeof messageEvents.$inferSelect;
export type Suppression = typeof suppressions.$inferSelect;
