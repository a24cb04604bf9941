import { z } from "zod";

/** A batch of recorded events of one project whose steps 3-4 still have to run, with their names (to skip early). */
const stepBatch = z.object({
  projectId: z.uuid(),
  batchId: z.uuid(),
  names: z.array(z.string()).min(1),
  eventIds: z.array(z.uuid()).min(1),
  /**
   * The earliest `occurred_at` among the events (ISO 8601): loading them reads only the partitions of
   * `events` from there on (lib/events/partitions.ts). Absent in jobs sent before it existed.
   */
  since: z.iso.datetime({ offset: true }).optional(),
});

/**
 * Step 2's input, computed by the drain from data it already holds: per (event name, property path) the
 * types seen, how many events carried it, first and last seen. The job merges it without re-reading events.
 */
export const schemaDelta = z.array(
  z.object({ n: z.string(), p: z.string(), t: z.array(z.string()), c: z.number().int(), f: z.string(), l: z.string() }),
);
export type SchemaDelta = z.infer<typeof schemaDelta>;

/** Per-minute overview counts of a recorded batch (lib/overview/rollup-of.ts): metric, minute, count. */
export const rollupDelta = z.array(
  z.object({
    k: z.enum([
      "events.client",
      "events.system",
      "events.scheduled",
      "users.created",
      "requests.accepted",
      "requests.rejected",
      "requests.limited",
    ]),
    m: z.string(),
    c: z.number().int(),
  }),
);
export type RollupDelta = z.infer<typeof rollupDelta>;

/**
 * Every pg-boss queue and the schema of its payload, shared by senders (route handlers, verbs, the
 * worker's own drain) and the worker, which validates each job with the same schema before handling it.
 */
export const QUEUES = {
  /** Housekeeping tick: drives periodic work (list windows, de-duplication purge). */
  "system.tick": z.object({}),
  /** Pipeline step 2: merge property paths and types into the discovered schema, and the overview counters. */
  "pipeline.schema": z.object({
    projectId: z.uuid(),
    batchId: z.uuid(),
    delta: schemaDelta,
    rollup: rollupDelta.default([]),
  }),
  /** Pipeline step 3: recompute dynamic lists that reference the batch's event names. */
  "pipeline.lists": stepBatch,
  /** Pipeline step 4: evaluate journey entrances listening for the batch's event names. */
  "pipeline.journeys": stepBatch,
  /** Pipeline step 5: decide the deliveries of the batch's events to the project's enabled destinations. */
  "pipeline.destinations": stepBatch,
  /** Deliver a `match` event to every user (organization) whose data contains the filter, in chunks. */
  "pipeline.fanout": z.object({ projectId: z.uuid(), fanoutId: z.uuid() }),
  /** Evaluate a dynamic list over all users (after it is created or its rules change), in chunks. */
  "lists.rebuild": z.object({ projectId: z.uuid(), listId: z.uuid() }),
  /**
   * Bring a journey's entries in line with the edits of its steps still pending (journey_edits), oldest
   * first, one batch per transaction (lib/journeys/apply-step-edits.ts).
   */
  "journeys.apply-edits": z.object({ projectId: z.uuid(), journeyId: z.uuid() }),
  /** Make a newly added schedule offset's firings for every active assignment, page by page. */
  "schedules.backfill-offset": z.object({ projectId: z.uuid(), offsetId: z.uuid() }),
  /**
   * Send an invitation's mail. The job carries no address or text: the worker reads the invitation, and
   * skips the job when `deliveryId` no longer matches (a resend superseded it) or the invitation closed.
   * `origin` is the public origin the invitation was made at, for the link.
   */
  "mail.invite": z.object({ projectId: z.uuid(), inviteId: z.uuid(), deliveryId: z.uuid(), origin: z.url().max(2048) }),
} as const satisfies Record<string, z.ZodType>;

export type QueueName = keyof typeof QUEUES;
export type JobPayload<Q extends QueueName> = z.infer<(typeof QUEUES)[Q]>;

/** A job's data checked with its queue's schema (throws a ZodError when it does not match). */
export function parseJob<Q extends QueueName>(queue: Q, data: unknown): JobPayload<Q> {
  // TypeScript cannot follow a generic key through the schema table; the schema is the queue's own.
  return QUEUES[queue].parse(data) as JobPayload<Q>;
}

/** The steps that follow recording, each its own job so one failing retries alone. */
export type StepQueue = "pipeline.schema" | "pipeline.lists" | "pipeline.journeys" | "pipeline.destinations";

/** pg-boss's own tables live in their own schema, apart from ours. */
export const BOSS_SCHEMA = "pgboss";

/** LISTEN/NOTIFY channel that wakes the intake drain when events are accepted. */
export const INTAKE_CHANNEL = "relay_event_intake";

/**
 * LISTEN/NOTIFY channel on which any change to an API key row is announced (a trigger, migration 0018,
 * names it too): web processes drop the keys they hold (lib/access/key-cache.ts).
 */
export const KEYS_CHANNEL = "relay_api_keys";

/** LISTEN/NOTIFY channel that wakes the import loop when an upload is queued. */
export const IMPORTS_CHANNEL = "relay_imports";
