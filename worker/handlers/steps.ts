import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { enterJourneys } from "@/lib/journeys/enter-journeys";
import { rebuildList } from "@/lib/lists/rebuild-list";
import { recomputeListsForEvents } from "@/lib/lists/recompute-lists";
import { discoverSchema } from "@/lib/pipeline/discover-schema";
import type { Enqueue } from "@/lib/pipeline/enqueue";
import { fanOut } from "@/lib/pipeline/fan-out";
import { loadEvents, runStep } from "@/lib/pipeline/run-step";
import type { JobPayload } from "@/lib/queue/jobs";

/** Whether any dynamic list / journey entrance of the project listens for one of `names` (most batches: none). */
async function anyListener(tx: DbOrTx, what: "lists" | "journeys", projectId: string, names: string[]): Promise<boolean> {
  const json = JSON.stringify(names);
  const rows =
    what === "lists"
      ? await tx.execute(sql`select 1 from lists where project_id = ${projectId}::uuid and kind = 'dynamic' and event_names && array(select jsonb_array_elements_text(${json}::jsonb)) limit 1`)
      : await tx.execute(sql`select 1 from journey_entrances where project_id = ${projectId}::uuid
          and (event_name in (select jsonb_array_elements_text(${json}::jsonb)) or (kind = 'scheduled' and exists (select 1 from jsonb_array_elements_text(${json}::jsonb) n where n like 'scheduled.%'))) limit 1`);
  return rows.length > 0;
}

/** Pipeline steps 2-4, the fan-out and list rebuilds. Every one is idempotent (see lib/pipeline/run-step.ts). */
export function stepHandlers(db: () => Db, enqueue: Enqueue) {
  return {
    "pipeline.schema": async (jobs: unknown[]) => {
      for (const j of jobs as JobPayload<"pipeline.schema">[]) await runStep(db(), "pipeline.schema", j, (tx) => discoverSchema(tx, j.projectId, j.delta));
    },
    "pipeline.lists": async (jobs: unknown[]) => {
      for (const j of jobs as JobPayload<"pipeline.lists">[]) {
        await runStep(db(), "pipeline.lists", j, async (tx) => {
          if (await anyListener(tx, "lists", j.projectId, j.names)) await recomputeListsForEvents(tx, j.projectId, await loadEvents(tx, j.projectId, j.eventIds));
        });
      }
    },
    "pipeline.journeys": async (jobs: unknown[]) => {
      for (const j of jobs as JobPayload<"pipeline.journeys">[]) {
        await runStep(db(), "pipeline.journeys", j, async (tx) => {
          if (await anyListener(tx, "journeys", j.projectId, j.names)) await enterJourneys(tx, j.projectId, await loadEvents(tx, j.projectId, j.eventIds));
        });
      }
    },
    "pipeline.fanout": async (jobs: unknown[]) => {
      for (const j of jobs as JobPayload<"pipeline.fanout">[]) await fanOut(db(), enqueue, j.projectId, j.fanoutId);
    },
    "lists.rebuild": async (jobs: unknown[]) => {
      for (const j of jobs as JobPayload<"lists.rebuild">[]) await rebuildList(db(), j.projectId, j.listId, "all");
    },
  };
}
