import {
  bigint,
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
  | "converted";

/**
 * Who a rollup row counts for: the whole project (the overview), a template, a broadcast, a journey, a
 * journey's send step, a split's path.
 */
export type ReportScope = "project" | "template" | "broadcast" | "journey" | "step" | "path";

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
     * One of ROLLUP_SHARDS rows per (scope, metric, hour), chosen by the message: every first open or
     * click of a broadcast's messages adds to the same hour's rows and holds them until its transaction
     * commits, so concurrent ones queued behind one row. Readers sum the shards (an index range still).
     */
    shard: smallint().notNull().default(0),
    count: bigint({ mode: "number" }).notNull(),
    value: doublePrecision().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.scope, t.scopeId, t.metric, t.hour, t.shard] })],
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
