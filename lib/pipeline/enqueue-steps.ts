import { randomUUID } from "node:crypto";
import type { ProjectContext } from "@/lib/access/context";
import { enqueue } from "@/lib/queue/enqueue";
import type { JobPayload } from "@/lib/queue/jobs";
import { rollupOf } from "@/lib/overview/rollup-of";
import { schemaDeltaOf, type SchemaSample } from "./discover-schema";
import { collectRecordedEvents, openBatchOf, type RecordedEvent } from "./open-batch";
import { listenersFor } from "./listeners";

/** Step jobs carry at most this many events, so one job stays a short transaction. */
export const STEP_BATCH = 1000;

/** A PostgreSQL timestamptz text ("2026-11-26 10:50:00.123+00") or ISO 8601, in ms. */
export function timeOf(text: string): number {
  return Date.parse(text.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
}

/** The earliest time of the events (occurred, else received), ISO 8601: a step job's `since`. */
export function earliestOf(events: RecordedEvent[]): string | undefined {
  let min = Number.POSITIVE_INFINITY;
  // A batch's events mostly share their time (a burst's receipt): each run of one text is parsed once.
  let last: string | undefined;
  for (const e of events) {
    const text = e.occurredAt ?? e.receivedAt;
    if (text !== last) min = Math.min(min, timeOf((last = text)));
  }
  return Number.isFinite(min) ? new Date(min).toISOString() : undefined;
}

export interface StepsInput {
  recorded: RecordedEvent[];
  /**
   * Step 2's input when the caller has it aggregated: samples standing for the recorded events (`times`
   * each, summing to their number), so the delta is not walked event by event (the firing loop's batch
   * is a few shapes, lib/schedules/fire-due.ts). Default: the events themselves.
   */
  samples?: SchemaSample[];
}

/**
 * Starts steps 2-4 for recorded events. Step 2 gets one job with the schema delta computed here from
 * data in hand. Steps 3-4 get one job per slice of at most STEP_BATCH events (ids and names), and are only
 * enqueued when a dynamic list / journey entrance listens for one of the names at recording time: with
 * none, running the step would change nothing (a list created later is evaluated over every user anyway).
 */
export async function enqueueSteps(ctx: ProjectContext, input: StepsInput): Promise<void> {
  const { recorded, samples = recorded } = input;
  const { db: tx, projectId } = ctx;
  if (!recorded.length) return;
  // The listeners question and the schema job (the delta is an aggregate, small whatever the batch size:
  // one job for all of it) are sent together: in a transaction postgres.js pipelines them on its
  // connection, one round trip instead of two. A batch of new users is five round trips with it (BEGIN,
  // lookup, insert, these, COMMIT), and each waits for the web process's one thread, often busy with
  // another batch's JSON. The question goes first, so an error in it is the one reported.
  const [listening] = await Promise.all([
    listenersFor(ctx, [...new Set(recorded.map((e) => e.name))]),
    enqueue(tx, "pipeline.schema", [
      { projectId, batchId: randomUUID(), delta: schemaDeltaOf(samples), rollup: rollupOf(samples) },
    ]),
  ]);
  const steps: JobPayload<"pipeline.lists">[] = [];
  for (let i = 0; i < recorded.length; i += STEP_BATCH) {
    const slice = recorded.slice(i, i + STEP_BATCH);
    steps.push({
      projectId,
      batchId: randomUUID(),
      names: [...new Set(slice.map((e) => e.name))],
      eventIds: slice.map((e) => e.id),
      since: earliestOf(slice),
    });
  }
  if (listening.lists) await enqueue(tx, "pipeline.lists", steps);
  if (listening.journeys || listening.goals) await enqueue(tx, "pipeline.journeys", steps);
  if (listening.destinations) await enqueue(tx, "pipeline.destinations", steps);
}

/**
 * Runs `fn` so that the system events it records in `ctx.db` bypass `event_intake`: they are held in an
 * open batch (lib/pipeline/open-batch.ts) and handed to steps 2-4 here, in the same transaction, once
 * `fn` has returned. For set-based writers (the batch endpoints, imports): their thousand `user.created` events
 * become one schema job (and a lists/journeys job when something listens) instead of a thousand intake
 * rows that the drain would claim, delete and turn into those same jobs. If `fn` throws, nothing is
 * enqueued (its rows roll back with it). Inside an open batch (the drain's) the events join that one.
 */
export async function bypassIntake<T>(ctx: ProjectContext, fn: () => Promise<T>): Promise<T> {
  if (openBatchOf(ctx)) return fn();
  let result!: T;
  const joined = await collectRecordedEvents(ctx, async () => {
    result = await fn();
  });
  await enqueueSteps(ctx, { recorded: joined });
  return result;
}
