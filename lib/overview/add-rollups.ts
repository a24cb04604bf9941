import { sql } from "drizzle-orm";
import type { RollupDelta } from "@/lib/queue/jobs";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Adds per-minute counts to `project_rollups` in one statement. Callers pass rows sorted by (metric,
 * minute) so two concurrent merges take row locks in the same order. Rows of a deleted project are dropped.
 */
export async function addRollups(ctx: ProjectContext, delta: RollupDelta): Promise<void> {
  if (!delta.length) return;
  await ctx.db.execute(sql`
    insert into project_rollups as r (project_id, metric, minute, count)
    select ${ctx.projectId}::uuid, x.k, x.m, x.c
    from jsonb_to_recordset(${JSON.stringify(delta)}::jsonb) as x(k text, m timestamptz, c bigint)
    where exists (select 1 from projects p where p.id = ${ctx.projectId}::uuid)
    on conflict (project_id, metric, minute) do update set count = r.count + excluded.count`);
}
