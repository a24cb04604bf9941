import type { Db } from "@/db/client";
import type { EventRow } from "@/db/schema";
import { decideDeliveries } from "@/lib/destinations/decide-deliveries";
import { enterJourneys } from "@/lib/journeys/enter-journeys";
import { catchUpStepEdits } from "@/lib/journeys/catch-up-step-edits";
import { releaseWaits } from "@/lib/journeys/release-waits";
import { recomputeListsForEvents } from "@/lib/lists/recompute-lists";
import type { JobPayload } from "@/lib/queue/jobs";
import { addRollups } from "@/lib/overview/add-rollups";
import { recordConversions } from "@/lib/reports/record-conversions";
import { discoverSchema } from "./discover-schema";
import { listenersFor } from "./listeners";
import { loadEvents, runStep, runSteps } from "./run-step";
import { type AppContext, systemContext, type ProjectContext } from "@/lib/access/context";

/** Pipeline step 2 for one job: merge the batch's schema delta and its overview counts (exactly once, with the marker). */
export async function runSchemaStep(
  ctx: ProjectContext<Db>,
  job: Omit<JobPayload<"pipeline.schema">, "projectId">,
): Promise<void> {
  await runStep(ctx, {
    step: "pipeline.schema",
    batchId: job.batchId,
    effect: async (inTx) => {
      await discoverSchema(inTx, job.delta);
      await addRollups(inTx, job.rollup);
    },
  });
}

/** Jobs of one merged run carry at most this many events in all (so the transaction stays short). */
export const MERGED_STEP_EVENTS = 5000;

type StepJob = JobPayload<"pipeline.lists">;

/**
 * Pipeline step 3 for the jobs a worker fetched together: per project, one transaction recomputes the
 * dynamic lists that (still) listen for the jobs' names, for the union of their events (see runSteps).
 */
export function runListsSteps(ctx: AppContext<Db>, jobs: StepJob[]): Promise<void> {
  return runMerged(ctx, "pipeline.lists", jobs, async (inTx, names, eventIds, since) => {
    if ((await listenersFor(inTx, names)).lists)
      await recomputeListsForEvents(inTx, await loadEvents(inTx, { ids: eventIds, since }));
  });
}

/**
 * Pipeline step 4 for the jobs a worker fetched together, per project in one transaction: the events
 * convert the messages whose goals they meet (record-conversions.ts), then release the entries waiting for them, then the journey entrances that (still) listen enter users
 * (so an entry is never released by the event that made it).
 */
export function runJourneysSteps(ctx: AppContext<Db>, jobs: StepJob[]): Promise<void> {
  return runMerged(ctx, "pipeline.journeys", jobs, async (inTx, names, eventIds, since) => {
    const listening = await listenersFor(inTx, names);
    // Loaded once, and only if a pending edit, a listening entrance or a goal needs the events themselves.
    let loaded: Promise<EventRow[]> | undefined;
    const events = () => (loaded ??= loadEvents(inTx, { ids: eventIds, since }));
    if (listening.goals) await recordConversions(inTx, await events());
    if (!listening.journeys) return;
    // Entries an edit re-keys whose batch has not come yet: in line before the probes look for them.
    await catchUpStepEdits(inTx, events);
    await releaseWaits(inTx, { ids: eventIds, since });
    await enterJourneys(inTx, { names, events });
  });
}

/**
 * Pipeline step 5 for the jobs a worker fetched together: per project in one transaction with the
 * done-markers, one delivery per (event, subscribed enabled destination).
 */
export function runDestinationsSteps(ctx: AppContext<Db>, jobs: StepJob[]): Promise<void> {
  return runMerged(ctx, "pipeline.destinations", jobs, async (inTx, names, eventIds) => {
    if ((await listenersFor(inTx, names)).destinations) await decideDeliveries(inTx, eventIds);
  });
}

/**
 * Groups jobs by project into runs of at most MERGED_STEP_EVENTS events and runs each merged. When a
 * merged run fails for its content (not a lost race, which runSteps retries), its jobs run one at a time,
 * so one bad batch fails alone and the others are done (their markers make the retry of the whole fetch
 * skip them); the first error is then thrown for pg-boss to retry.
 */
async function runMerged(
  { db }: AppContext<Db>,
  step: "pipeline.lists" | "pipeline.journeys" | "pipeline.destinations",
  jobs: StepJob[],
  effect: (ctx: ProjectContext, names: string[], eventIds: string[], since?: string) => Promise<void>,
): Promise<void> {
  const run = (projectId: string, group: StepJob[]) =>
    runSteps(systemContext(db, projectId), {
      step,
      batchIds: group.map((j) => j.batchId),
      effect: async (inTx, claimed) => {
        const mine = group.filter((j) => claimed.includes(j.batchId));
        await effect(
          inTx,
          [...new Set(mine.flatMap((j) => j.names))],
          mine.flatMap((j) => j.eventIds),
          // The earliest of the jobs' bounds; none when a job has none.
          mine.every((j) => j.since)
            ? mine.map((j) => j.since!).sort((a, b) => Date.parse(a) - Date.parse(b))[0]
            : undefined,
        );
      },
    });
  for (const group of mergedGroups(jobs)) {
    try {
      await run(group[0]!.projectId, group);
    } catch (err) {
      if (group.length === 1) throw err;
      let first: unknown;
      for (const job of group) await run(job.projectId, [job]).catch((e) => (first ??= e));
      if (first) throw first;
    }
  }
}

/** Jobs grouped by project, each group at most MERGED_STEP_EVENTS events (a single larger job stands alone). */
export function mergedGroups(jobs: StepJob[]): StepJob[][] {
  const byProject = new Map<string, StepJob[]>();
  for (const j of jobs) byProject.set(j.projectId, [...(byProject.get(j.projectId) ?? []), j]);
  const groups: StepJob[][] = [];
  for (const list of byProject.values()) {
    let current: StepJob[] = [];
    let size = 0;
    for (const j of list) {
      if (current.length && size + j.eventIds.length > MERGED_STEP_EVENTS) {
        groups.push(current);
        current = [];
        size = 0;
      }
      current.push(j);
      size += j.eventIds.length;
    }
    if (current.length) groups.push(current);
  }
  return groups;
}
