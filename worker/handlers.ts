import { getDb } from "@/db/client";
import { applyStepEdits } from "@/lib/journeys/apply-step-edits";
import { deliverInviteMail } from "@/lib/invites/deliver-invite-mail";
import { rebuildList } from "@/lib/lists/rebuild-list";
import { fanOut } from "@/lib/pipeline/fan-out";
import { runHousekeeping } from "@/lib/pipeline/housekeeping";
import { runDestinationsSteps, runJourneysSteps, runListsSteps, runSchemaStep } from "@/lib/pipeline/step-jobs";
import { parseJob, type JobPayload, type QueueName } from "@/lib/queue/jobs";
import { backfillOffset } from "@/lib/schedules/backfill-offset";
import { systemContext } from "@/lib/access/context";

type Handlers = { [Q in QueueName]: (jobs: JobPayload<Q>[]) => Promise<void> };

/** Handles a batch one job at a time (each verb is its own transaction, so a failure retries the batch's rest). */
const each =
  <P>(verb: (job: P) => Promise<unknown>) =>
  async (jobs: P[]) => {
    for (const job of jobs) await verb(job);
  };

/**
 * One handler per queue of lib/queue/jobs.ts, typed by its payload: the worker only dispatches to verbs.
 * Every verb is idempotent (see lib/pipeline/run-step.ts), so a retried or duplicated job writes nothing twice.
 */
export const HANDLERS: Handlers = {
  "system.tick": async () => runHousekeeping({ db: getDb() }),
  "pipeline.schema": each((job) => runSchemaStep(systemContext(getDb(), job.projectId), job)),
  // Merged: the jobs fetched together are decided in one pass per project (lib/pipeline/step-jobs.ts).
  "pipeline.lists": (jobs) => runListsSteps({ db: getDb() }, jobs),
  "pipeline.journeys": (jobs) => runJourneysSteps({ db: getDb() }, jobs),
  "pipeline.destinations": (jobs) => runDestinationsSteps({ db: getDb() }, jobs),
  "pipeline.fanout": each((job) => fanOut(systemContext(getDb(), job.projectId), { fanoutId: job.fanoutId })),
  "lists.rebuild": each((job) =>
    rebuildList(systemContext(getDb(), job.projectId), { listId: job.listId, scope: "all" }),
  ),
  // Resumable likewise: each batch commits its edit's cursor.
  "journeys.apply-edits": each((job) =>
    applyStepEdits(systemContext(getDb(), job.projectId), { journeyId: job.journeyId }),
  ),
  // Resumable: each page commits its cursor, so a retried job continues where the last one stopped.
  "schedules.backfill-offset": each((job) =>
    backfillOffset(systemContext(getDb(), job.projectId), { offsetId: job.offsetId }),
  ),
  // Throws on an SMTP failure (after recording it on the invitation), so pg-boss retries with the mail backoff.
  "mail.invite": each((job) => deliverInviteMail(systemContext(getDb(), job.projectId), job)),
};

/** Queues whose handler takes the whole fetched batch at once (the others are handed one job at a time). */
export const MERGED_QUEUES: ReadonlySet<QueueName> = new Set([
  "pipeline.lists",
  "pipeline.journeys",
  "pipeline.destinations",
]);

/** Validates a batch with its queue's schema (the sender's) and hands it to the queue's handler. */
export async function dispatch<Q extends QueueName>(
  queue: Q,
  data: unknown[],
  handlers: Handlers = HANDLERS,
): Promise<void> {
  const handler: (jobs: JobPayload<Q>[]) => Promise<void> = handlers[queue];
  await handler(data.map((d) => parseJob(queue, d)));
}
