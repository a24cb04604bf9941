import type { Db } from "@/db/client";
import { enterJourneys } from "@/lib/journeys/enter-journeys";
import { rebuildList } from "@/lib/lists/rebuild-list";
import { recomputeListsForEvents } from "@/lib/lists/recompute-lists";
import { discoverSchema } from "@/lib/pipeline/discover-schema";
import type { Enqueue } from "@/lib/pipeline/enqueue";
import { fanOut } from "@/lib/pipeline/fan-out";
import { runStep } from "@/lib/pipeline/run-step";
import type { JobPayload } from "@/lib/queue/jobs";

type Jobs<Q extends Parameters<typeof runStep>[1] | "pipeline.fanout" | "lists.rebuild"> = JobPayload<Q>[];

/** Pipeline steps 2-4, the fan-out and list rebuilds. Every one is idempotent (see lib/pipeline/run-step.ts). */
export function stepHandlers(db: () => Db, enqueue: Enqueue) {
  return {
    "pipeline.schema": async (jobs: unknown[]) => {
      for (const j of jobs as Jobs<"pipeline.schema">) await runStep(db(), "pipeline.schema", j, (tx, rows) => discoverSchema(tx, j.projectId, rows));
    },
    "pipeline.lists": async (jobs: unknown[]) => {
      for (const j of jobs as Jobs<"pipeline.lists">) await runStep(db(), "pipeline.lists", j, (tx, rows) => recomputeListsForEvents(tx, j.projectId, rows));
    },
    "pipeline.journeys": async (jobs: unknown[]) => {
      for (const j of jobs as Jobs<"pipeline.journeys">) await runStep(db(), "pipeline.journeys", j, async (tx, rows) => void (await enterJourneys(tx, j.projectId, rows)));
    },
    "pipeline.fanout": async (jobs: unknown[]) => {
      for (const j of jobs as Jobs<"pipeline.fanout">) await fanOut(db(), enqueue, j.projectId, j.fanoutId);
    },
    "lists.rebuild": async (jobs: unknown[]) => {
      for (const j of jobs as Jobs<"lists.rebuild">) await rebuildList(db(), j.projectId, j.listId, "all");
    },
  };
}
