import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { journeyEntries } from "./journeys";
import { messages } from "./messages";
import { belongsTo, projectIdColumn } from "./project-column";

/** What a report counts. Each is counted once per message (its first occurrence), except `opens`/`clicks`. */
export type ReportMetric =
  | "sent"
  | "delivered"
  | "bounced"
  | "complained"
  | "opened"
  | "opened_machine"
  | "clicked"
  | "unsubscribed"
  | "converted"
  /** Entries that took a split's path (scope `split` only). */
  | "entered";

/**
 * Who a rollup row counts for: the whole project (the overview), a template, a broadcast, a journey, a
 * journey's send step, a split's path (`path`: the messages sent after it), a split test's path (`split`:
 * its entries, each counted once per metric, the test's denominator and successes), a broadcast's test
 * variant (`variant`).
 */
export type ReportScope = "project" | "template" | "broadcast" | "journey" | "step" | "path" | "split" | "variant";

/**
 * What each message did after it was sent, one row per message that did anything: the first time of
 * each kind and the repeat counts. The first-time columns are set once (`where … is null`), so a retried
 * or repeated report adds to the rollups exactly once.
 */
export const messageEngagement = pgTable(
  "message_engagement",
  {
    projectId: projectIdColumn(),
    messageId: uuid().notNull(),
    openedAt: timestamptz(),
    opens: integer().notNull().default(0),
    machineOpenedAt: timestamptz(),
    machineOpens: integer().notNull().default(0),
    clickedAt: timestamptz(),
    clicks: integer().notNull().default(0),
    unsubscribedAt: timestamptz(),
    convertedAt: timestamptz(),
    conversionValue: doublePrecision(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.messageId] }), belongsTo(t.projectId, t.messageId, messages)],
);

/**
 * Hourly counters behind every report, written in the transaction of the change they count (a send
 * becoming final, a first open, a delivery report), so a report is an index range over hours, never a
 * scan of messages. `scope_id` is the project, template, broadcast or journey id, `<journey>/<step>` for a step,
 * `<journey>/<split step>/<path>` for a split's path.
 */
export const messageRollups = pgTable(
  "message_rollups",
  {
    projectId: projectIdColumn(),
    scope: text().$type<ReportScope>().notNull(),
    scopeId: text().notNull(),
    metric: text().$type<ReportMetric>().notNull(),
    hour: timestamptz().notNull(),
    /**
     * One of ROLLUP_SHARDS rows per (scope, metric, hour), chosen at random by each write: every first
     * open or click of a broadcast's messages adds to the same hour's rows and holds them until its
     * transaction commits, so concurrent ones queued behind one row. Readers sum the shards (an index
     * range still); once the hour is closed the worker folds them into one row (lib/reports/fold-rollups.ts).
     */
    shard: smallint().notNull().default(0),
    count: bigint({ mode: "number" }).notNull(),
    value: doublePrecision().notNull().default(0),
    /** The one row its closed hour's shards were folded into (fold-rollups.ts); a late write may add a shard. */
    folded: boolean().notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.scope, t.scopeId, t.metric, t.hour, t.shard] }),
    // The rows lib/reports/fold-rollups.ts has yet to fold: the open hours' and late writes.
    index("message_rollups_unfolded_idx").on(t.hour).where(sql`not ${t.folded}`),
  ],
);

/**
 * The same counters per UTC day, written in the same statement as the hourly rows
 * (lib/reports/rollup-rows.ts), so a report reads its scope's first 48 hours by the hour and the rest by
 * the day: a few rows per day of the scope's life, where the hourly rows of a month of sends are 24 times
 * as many. Sharded as the hourly rows, for the same hot rows (a broadcast's first opens all add to one day).
 */
export const messageRollupsDaily = pgTable(
  "message_rollups_daily",
  {
    projectId: projectIdColumn(),
    scope: text().$type<ReportScope>().notNull(),
    scopeId: text().notNull(),
    metric: text().$type<ReportMetric>().notNull(),
    /** Midnight UTC of the day counted. */
    day: timestamptz().notNull(),
    shard: smallint().notNull().default(0),
    count: bigint({ mode: "number" }).notNull(),
    value: doublePrecision().notNull().default(0),
    /** As the hourly rows': the one row of a closed day. */
    folded: boolean().notNull().default(false),
  },
  // Named: the generated name is longer than PostgreSQL's 63 bytes.
  (t) => [
    primaryKey({
      name: "message_rollups_daily_pk",
      columns: [t.projectId, t.scope, t.scopeId, t.metric, t.day, t.shard],
    }),
    index("message_rollups_daily_unfolded_idx").on(t.day).where(sql`not ${t.folded}`),
  ],
);

/**
 * A broadcast's or journey's conversion goal: the user's first `event` (matching `condition`) within
 * `within` after a message of it was sent converts the latest such message. Found by event name when
 * the pipeline's step 4 runs (campaign_goals_event_idx), so events no goal names cost one index probe.
 */
export const campaignGoals = pgTable(
  "campaign_goals",
  {
    projectId: projectIdColumn(),
    ownerKind: text().$type<"broadcast" | "journey">().notNull(),
    ownerId: uuid().notNull(),
    event: text().notNull(),
    condition: jsonb().$type<unknown>(),
    within: text().notNull(),
    valuePath: text(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.ownerKind, t.ownerId] }),
    index("campaign_goals_event_idx").on(t.projectId, t.event),
  ],
);

/**
 * Each entry's first passage of each split step: the path it took (the hash's, or the test's winner) and
 * when, and the first time it opened (a person), clicked or converted after it: set once each, so the
 * split's test counts every entry at most once per metric (`split` rollups). The conversion is the
 * journey goal's event within its window after the passage, with or without a message on the path, so a
 * path that sends nothing (a hold-out) converts too.
 */
export const journeySplitEntries = pgTable(
  "journey_split_entries",
  {
    projectId: projectIdColumn(),
    entryId: uuid().notNull(),
    stepKey: text().notNull(),
    journeyId: uuid().notNull(),
    userId: uuid().notNull(),
    /** 0-based index into the split's `paths`. */
    path: smallint().notNull(),
    enteredAt: timestamptz().notNull(),
    openedAt: timestamptz(),
    clickedAt: timestamptz(),
    convertedAt: timestamptz(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.entryId, t.stepKey] }),
    // A journey goal's event finds the user's passages of that journey's splits by key.
    index("journey_split_entries_user_idx").on(t.projectId, t.userId, t.journeyId),
    belongsTo(t.projectId, t.entryId, journeyEntries),
  ],
);

/**
 * An A/B test's decision, one row per test (a journey's split step, or a broadcast's variants; `step_key`
 * is '' for a broadcast): the looks taken so far and, once decided, the winner. A look is taken at most
 * once (`looks` only grows) and the winner is set only while null, so a decision never flips. No foreign
 * key to the journey: the due claim writes it while an edit may hold the journey (as journey_step_passes).
 */
export const abDecisions = pgTable(
  "ab_decisions",
  {
    projectId: projectIdColumn(),
    ownerKind: text().$type<"journey" | "broadcast">().notNull(),
    ownerId: uuid().notNull(),
    stepKey: text().notNull().default(""),
    looks: integer().notNull().default(0),
    /** 0-based index of the winning path or variant; null while undecided (or decided that none won). */
    winner: smallint(),
    /** The winner's chance to beat the others at the deciding look. */
    chance: doublePrecision(),
    /** Set when the test is over: a winner found, or the last look taken without one. */
    decidedAt: timestamptz(),
    /**
     * When the next look is taken: set when the smallest path reaches the look's size, a settling time
     * later (a conversion test's goal window, else a day), so its latest entries have had the time to do
     * the metric before they count against their path.
     */
    lookAt: timestamptz(),
    updatedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.ownerKind, t.ownerId, t.stepKey] })],
);
