import { sql } from "drizzle-orm";
import { index, jsonb, pgEnum, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt, uuidV7 } from "./columns";
import { projects } from "./console";
import { belongsTo, projectIdColumn } from "./project-column";
import { users } from "./end-users";

export const messageChannel = pgEnum("message_channel", ["email", "sms", "push"]);
export const subscriptionState = pgEnum("subscription_state", ["subscribed", "unsubscribed"]);
/** `opt_out`: an unset state counts as subscribed. `opt_in`: only an explicit subscribe counts. */
export const subscriptionPolicy = pgEnum("subscription_policy", ["opt_out", "opt_in"]);
/** Where a change came from; shown in the user's history. */
export const subscriptionSource = pgEnum("subscription_source", [
  "client_api",
  "admin_api",
  "console",
  "one_click",
  "unsubscribe_page",
  "preference_center",
  "sms",
]);

/** Per-project settings for subscriptions. A project without a row uses the defaults below. */
export const subscriptionSettings = pgTable("subscription_settings", {
  projectId: uuid()
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  defaultPolicy: subscriptionPolicy().notNull().default("opt_out"),
  /** Twilio auth token that verifies inbound SMS webhooks, sealed by lib/signing/seal.ts; never returned by the API. */
  twilioAuthToken: text(),
  updatedAt: updatedAt(),
});

export const subscriptionGroups = pgTable(
  "subscription_groups",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    name: text().notNull(),
    description: text(),
    channel: messageChannel().notNull(),
    /** Overrides the project's default policy for this group when set. */
    defaultPolicy: subscriptionPolicy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex("subscription_groups_name_uq").on(t.projectId, sql`lower(${t.name})`),
  ],
);

/** The explicit state of a user in a group. No row means unset. */
export const userSubscriptions = pgTable(
  "user_subscriptions",
  {
    projectId: uuid().notNull(),
    userId: uuid().notNull(),
    groupId: uuid().notNull(),
    state: subscriptionState().notNull(),
    source: subscriptionSource().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId, t.groupId] }),
    index("user_subscriptions_group_idx").on(t.projectId, t.groupId, t.state),
    belongsTo(t.projectId, t.userId, users),
    belongsTo(t.projectId, t.groupId, subscriptionGroups),
  ],
);

/**
 * A whole-channel opt-out (SMS STOP). It outlives the groups: an SMS group created after a STOP still
 * must not reach that user, as carriers require.
 */
export const userChannelOptOuts = pgTable(
  "user_channel_opt_outs",
  {
    projectId: uuid().notNull(),
    userId: uuid().notNull(),
    channel: messageChannel().notNull(),
    source: subscriptionSource().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId, t.channel] }), belongsTo(t.projectId, t.userId, users)],
);

/** Append-only history of every change: state before and after (null = unset), source and time. */
export const subscriptionChanges = pgTable(
  "subscription_changes",
  {
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    userId: uuid().notNull(),
    /** Null for a whole-channel change (SMS STOP / START). */
    groupId: uuid(),
    channel: messageChannel().notNull(),
    previousState: subscriptionState(),
    state: subscriptionState(),
    source: subscriptionSource().notNull(),
    /** Who or what made it: the API key or admin, the inbound message id. */
    detail: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("subscription_changes_user_idx").on(t.projectId, t.userId, t.createdAt),
    belongsTo(t.projectId, t.userId, users),
    belongsTo(t.projectId, t.groupId, subscriptionGroups),
  ],
);

export type MessageChannel = (typeof messageChannel.enumValues)[number];
export type SubscriptionState = (typeof subscriptionState.enumValues)[number];
export type SubscriptionPolicy = (typeof subscriptionPolicy.enumValues)[number];
export type SubscriptionSource = (typeof subscriptionSource.enumValues)[number];
export type SubscriptionGroup = typeof subscriptionGroups.$inferSelect;
export type SubscriptionChange = typeof subscriptionChanges.$inferSelect;
