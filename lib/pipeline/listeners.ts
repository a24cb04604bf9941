import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Whether a dynamic list (step 3), a journey entrance or waiting entry or a conversion goal (step 4) of the project
 * listens for one of the event names (most batches: neither), and whether the project has an enabled destination (step 5). Asked when the steps are enqueued and again when they run, since
 * lists and entrances may have changed in between.
 */
export async function listenersFor(
  ctx: ProjectContext,
  names: string[],
): Promise<{ lists: boolean; journeys: boolean; goals: boolean; destinations: boolean }> {
  const { db: tx, projectId } = ctx;
  const json = JSON.stringify(names);
  const [row] = await tx.execute<{ lists: boolean; journeys: boolean; goals: boolean; destinations: boolean }>(sql`
    select
      exists (select 1 from lists where project_id = ${projectId}::uuid and kind = 'dynamic'
        and event_names && array(select jsonb_array_elements_text(${json}::jsonb))) as lists,
      exists (select 1 from journey_entrances where project_id = ${projectId}::uuid
        and (event_name in (select jsonb_array_elements_text(${json}::jsonb))
          or (kind = 'scheduled' and exists (select 1 from jsonb_array_elements_text(${json}::jsonb) n where n like 'scheduled.%'))))
        -- An entry waiting for one of the names: one probe of journey_entries_wait_idx per name. Written as
        -- wait_event in (names), the planner took a semi join over a scan of the project's entries (56 ms
        -- for each batch with 100,000 waiting, on every drain batch and step job).
        or exists (select 1 from jsonb_array_elements_text(${json}::jsonb) n(name)
          where exists (select 1 from journey_entries w where w.project_id = ${projectId}::uuid
            and w.wait_event = n.name and w.wait_event is not null)) as journeys,
      -- A broadcast's or journey's conversion goal naming one of them (also run by step 4).
      exists (select 1 from campaign_goals g where g.project_id = ${projectId}::uuid
        and g.event in (select jsonb_array_elements_text(${json}::jsonb))) as goals,
      -- Which names a destination takes is decided by the step itself (lib/destinations/message-sql.ts).
      exists (select 1 from destinations where project_id = ${projectId}::uuid and enabled) as destinations`);
  return row!;
}
