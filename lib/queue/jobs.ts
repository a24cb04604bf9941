import { z } from "zod";

/**
 * Every pg-boss queue and the schema of its payload, shared by senders (route handlers, verbs) and the
 * worker, which validates each job with the same schema before handling it.
 */
export const QUEUES = {
  /** Housekeeping tick: proves the worker is alive and drives periodic work. */
  "system.tick": z.object({}),
  /** Make a newly added schedule offset's firings for every active assignment, page by page. */
  "schedules.backfill-offset": z.object({ projectId: z.uuid(), offsetId: z.uuid() }),
} as const satisfies Record<string, z.ZodType>;

export type QueueName = keyof typeof QUEUES;
export type JobPayload<Q extends QueueName> = z.infer<(typeof QUEUES)[Q]>;

/** pg-boss's own tables live in their own schema, apart from ours. */
export const BOSS_SCHEMA = "pgboss";
