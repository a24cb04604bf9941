import { sql } from "drizzle-orm";
import {
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
import { users } from "./end-users";
import { lists } from "./lists";
import { belongsTo, projectIdColumn } from "./project-column";

export type SendChannel = "email" | "sms";
export type MessageState = "queued" | "sent" | "skipped" | "failed";
export type BroadcastState = "scheduled" | "sending" | "done" | "cancelled";

/** One locale's variant of a template's parts (a part left out falls back to the default's). */
export interface TemplateVariant {
  subject?: string;
  text?: string;
  html?: string;
}

/**
 * Where a project's messages of one channel leave: an SMTP server or a Twilio-compatible SMS API. The
 * secret part (the SMTP URL with its password, the Twilio auth token) is sealed (lib/signing/seal.ts) and
 * never answered; `config` holds only what may be shown (the URL with its password masked, the account
 * sid, the API base). One provider per channel: without an e-mail one, the deployment's SMTP_URL sends.
 */
export const messageProviders = pgTable(
  "message_providers",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    channel: text().$type<SendChannel>().notNull(),
    kind: text().$type<"smtp" | "twilio">().notNull(),
    name: text().notNull(),
    from: text().notNull(),
    config: jsonb().$type<Record<string, string>>().notNull(),
    secretSealed: text().notNull(),
    /** Messages per second this project may hand the provider (all workers together); null: no limit. */
    ratePerSecond: integer(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex("message_providers_channel_uq").on(t.projectId, t.channel),
  ],
);

/**
 * A Liquid template of one channel. `groupId` is the subscription group its messages belong to (required
 * unless `transactional`); `locales` maps a locale (`de`, `de-AT`) to its variant.
 */
export const messageTemplates = pgTable(
  "message_templates",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    name: text().notNull(),
    channel: text().$type<SendChannel>().notNull(),
    subject: text().notNull().default(""),
    text: text().notNull().default(""),
    html: text().notNull().default(""),
    groupId: uuid(),
    transactional: boolean().notNull().default(false),
    locales: jsonb().$type<Record<string, TemplateVariant>>().notNull().default({}),
    /** `html` (Liquid over HTML, `<style>` inlined) or `mjml` (compiled at save). */
    format: text().$type<"html" | "mjml">().notNull().default("html"),
    /** The layout around `html`; null: the project's default layout (when of the same format). */
    layoutId: uuid(),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    /** The current version (authoring_versions) and its build (template_builds); null before the first save. */
    versionId: uuid(),
    buildId: uuid(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex("message_templates_name_uq").on(t.projectId, sql`lower(${t.name})`),
  ],
);

/**
 * A send to every member of a list. Its recipients are the list's members when sending starts, written as
 * one message each (unique by (broadcast, user)), so a restart or a second worker finds them and sends
 * none twice.
 */
export const broadcasts = pgTable(
  "broadcasts",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    name: text().notNull(),
    templateId: uuid().notNull(),
    listId: uuid().notNull(),
    sendAt: timestamptz().notNull(),
    /** `send_at`'s wall-clock time is read in each recipient's time zone (UTC when unknown). */
    inUserTimezone: boolean().notNull().default(false),
    ratePerSecond: integer(),
    state: text().$type<BroadcastState>().notNull().default("scheduled"),
    recipients: integer(),
    /** What its messages render, fixed when sending starts: the template's version and build, the snippets' versions. */
    pinned: jsonb().$type<{
      template_version_id: string | null;
      build_id: string | null;
      snippets: Record<string, string>;
    }>(),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    /**
     * An A/B test's variants (`[{template_id, weight}]`) and its settings (`{fraction, metric,
     * decide_after}`); null: one template for all (lib/broadcasts/variant-test.ts).
     */
    variants: jsonb().$type<{ template_id: string; weight: number }[]>(),
    test: jsonb().$type<{ fraction: number; metric: "open" | "click" | "conversion"; decide_after: string }>(),
    startedAt: timestamptz(),
    /**
     * While it starts (in chunks, lib/broadcasts/tick-broadcasts.ts): the last list member, by user id,
     * given a message. A start cut off resumes after it.
     */
    startedThrough: uuid(),
    finishedAt: timestamptz(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("broadcasts_due_idx").on(t.sendAt).where(sql`${t.state} in ('scheduled', 'sending')`),
    belongsTo(t.projectId, t.listId, lists),
    belongsTo(t.projectId, t.templateId, messageTemplates),
  ],
);

/**
 * One message to one user, keyed by its cause: a journey entry's step, a broadcast's recipient, or a
 * request to the transactional send API (`api_request_id`: fresh per request, or per idempotency key). The row
 * is written before any provider is called and its final state after, so a retried cause finds it and
 * sends nothing again. `next_attempt_at` is when it is due (later in quiet hours or on retry);
 * `lease_until` is set while a sender holds it, so a killed sender's message comes due again.
 */
export const messages = pgTable(
  "messages",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    templateId: uuid().notNull(),
    /** The template version it renders (and rendered), and that version's build: set when it is queued. */
    templateVersionId: uuid(),
    templateBuildId: uuid(),
    userId: uuid().notNull(),
    channel: text().$type<SendChannel>().notNull(),
    state: text().$type<MessageState>().notNull().default("queued"),
    reason: text(),
    attempts: integer().notNull().default(0),
    recipient: text(),
    locale: text(),
    subject: text(),
    providerId: uuid(),
    providerMessageId: text(),
    journeyEntryId: uuid(),
    journeyStepKey: text(),
    broadcastId: uuid(),
    /**
     * A broadcast test's arm: the variant's index for a recipient in the test fraction, -1 for the rest
     * (held until the winner is known, then sent the winner); null without a test.
     */
    variant: smallint(),
    /** The entry's context, `journey.<key>` in templates; empty for broadcasts. */
    journeyData: jsonb().$type<Record<string, unknown>>(),
    /** The send API's cause: one message per request (lib/messages/send-message.ts). */
    apiRequestId: uuid(),
    /** The send API's `data`, `data.<key>` in templates. */
    data: jsonb().$type<Record<string, unknown>>(),
    /** The send API's `to`: an address used instead of the user's (transactional templates only). */
    toAddress: text(),
    nextAttemptAt: timestamptz().notNull().defaultNow(),
    leaseUntil: timestamptz(),
    /**
     * When a sender took one of the user's frequency-cap slots for it (reserve-cap-slot.ts), set once,
     * under a lock per (project, user, channel): a queued message holding a slot counts against the cap.
     */
    capReservedAt: timestamptz(),
    createdAt: createdAt(),
    finishedAt: timestamptz(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex("messages_journey_cause_uq").on(t.projectId, t.journeyEntryId, t.journeyStepKey),
    uniqueIndex("messages_broadcast_cause_uq").on(t.projectId, t.broadcastId, t.userId),
    uniqueIndex("messages_api_cause_uq").on(t.projectId, t.apiRequestId),
    // Due messages per project: the claim takes each project's fair share (lib/outbound/fair-share.ts), so it
    // asks per project, oldest due first.
    index("messages_project_due_idx").on(t.projectId, t.nextAttemptAt).where(sql`${t.state} = 'queued'`),
    // A broadcast is done when none of its messages is queued: found without reading its final ones.
    index("messages_broadcast_queued_idx").on(t.projectId, t.broadcastId).where(sql`${t.state} = 'queued'`),
    index("messages_user_idx").on(t.projectId, t.userId, t.createdAt),
    // The queued messages holding a user's frequency-cap slots, found without reading the user's history.
    index("messages_cap_held_idx")
      .on(t.projectId, t.userId)
      .where(sql`${t.state} = 'queued' and ${t.capReservedAt} is not null`),
    index("messages_template_idx").on(t.projectId, t.templateId, t.id),
    // A provider's status callback names the message by the provider's id (Twilio's MessageSid).
    index("messages_provider_message_idx")
      .on(t.projectId, t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
    belongsTo(t.projectId, t.templateId, messageTemplates),
    belongsTo(t.projectId, t.userId, users),
  ],
);

export type MessageProvider = typeof messageProviders.$inferSelect;
export type MessageTemplate = typeof messageTemplates.$inferSelect;
export type Broadcast = typeof broadcasts.$inferSelect;
export type Message = typeof messages.$inferSelect;
