import { z } from "zod";

/** A batch of recorded events of one project whose steps 2-4 still have to run. */
const stepBatch = z.object({ projectId: z.uuid(), batchId: z.uuid(), eventIds: z.array(z.uuid()).min(1) });

/**
 * Every pg-boss queue and the schema of its payload, shared by senders (route handlers, verbs, the
 * worker's own drain) and the worker, which validates each job with the same schema before handling it.
 */
export const QUEUES = {
  /** Housekeeping tick: drives periodic work (list windows, de-duplication purge). */
  "system.tick": z.object({}),
  /** Pipeline step 2: merge property paths and types into the discovered schema. */
  "pipeline.schema": stepBatch,
  /** Pipeline step 3: recompute dynamic lists that reference the batch's event names. */
  "pipeline.lists": stepBatch,
  /** Pipeline step 4: evaluate journey entrances listening for the batch's event names. */
  "pipeline.journeys": stepBatch,
  /** Deliver a `match` event to every user (organization) whose data contains the filter, in chunks. */
  "pipeline.fanout": z.object({ projectId: z.uuid(), fanoutId: z.uuid() }),
  /** Evaluate a dynamic list over all users (after it is created or its rules change), in chunks. */
  "lists.rebuild": z.object({ projectId: z.uuid(), listId: z.uuid() }),
} as const satisfies Record<string, z.ZodType>;

export type QueueName = keyof typeof QUEUES;
export type JobPayload<Q extends QueueName> = z.infer<(typeof QUEUES)[Q]>;

/** The three steps that follow recording, each its own job so one failing retries alone. */
export const STEP_QUEUES = ["pipeline.schema", "pipeline.lists", "pipeline.journeys"] as const satisfies QueueName[];
export type StepQueue = (typeof STEP_QUEUES)[number];

/** pg-boss's own tables live in their own schema, apart from ours. */
export const BOSS_SCHEMA = "pgboss";

/** LISTEN/NOTIFY channel that wakes the intake drain when events are accepted. */
export const INTAKE_CHANNEL = "relay_event_intake";
