import { bigint, index, integer, jsonb, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz, uuidV7 } from "./columns";
import { projectIdColumn } from "./project-column";

/** The counters of the project overview. */
export type RollupMetric =
  | "events.client"
  | "events.system"
  | "events.scheduled"
  | "users.created"
  | "requests.accepted"
  | "requests.rejected"
  /** Of the rejected, those refused by a rate limit (429): counted here, not written to the request log. */
  | "requests.limited";

/**
 * Per-minute counters behind the project overview, so the page never scans `events`: the pipeline's
 * schema step adds its batch's events (exactly once, in the step's transaction), the request log's flush
 * adds accepted and rejected API requests. Pruned after 30 days by the worker's tick.
 */
export const projectRollups = pgTable(
  "project_rollups",
  {
    projectId: projectIdColumn(),
    metric: text().$type<RollupMetric>().notNull(),
    minute: timestamptz().notNull(),
    count: bigint({ mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.metric, t.minute] })],
);

/**
 * The API request log: requests made with an API key, written in batches by the web process (never on the
 * request path). Bounded: the worker's tick keeps the last 1,000 rows per key and nothing older than 7 days.
 * Bodies are kept only for failed requests, secrets redacted, at most 8 KiB.
 */
export const apiRequests = pgTable(
  "api_requests",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    keyId: uuid().notNull(),
    at: timestamptz({ precision: 3 }).notNull(),
    method: text().notNull(),
    path: text().notNull(),
    status: smallint().notNull(),
    durationMs: integer().notNull(),
    requestId: text().notNull(),
    errors: jsonb().$type<{ path: string; message: string }[]>(),
    body: text(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("api_requests_key_idx").on(t.projectId, t.keyId, t.at),
    index("api_requests_at_idx").on(t.at),
  ],
);

export type ApiRequestRow = typeof apiRequests.$inferSelect;
