import { and, eq, inArray, sql } from "drizzle-orm";
import { queryRows, uuidArray } from "@/lib/db/sql";
import type { Step } from "./step-schema";
import { journeyEntrances, type Journey } from "@/db/schema";
import type { JourneyView } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

export async function toJourneyViews(ctx: ProjectContext, rows: Journey[]): Promise<JourneyView[]> {
  const entrances = rows.length
    ? await ctx.db
        .select()
        .from(journeyEntrances)
        .where(
          and(
            eq(journeyEntrances.projectId, ctx.projectId),
            inArray(
              journeyEntrances.journeyId,
              rows.map((r) => r.id),
            ),
          ),
        )
        .orderBy(journeyEntrances.id)
    : [];
  const counts = await stepCounts(
    ctx,
    rows.filter((r) => (r.steps as Step[]).length).map((r) => r.id),
  );
  return rows.map((j) => ({
    id: j.id,
    name: j.name,
    allow_multiple_entries: j.allowMultipleEntries,
    allow_concurrent_runs: j.allowConcurrentRuns,
    entrances: entrances
      .filter((e) => e.journeyId === j.id)
      .map((e) => ({
        id: e.id,
        kind: e.kind,
        event_name: e.eventName,
        condition: e.condition ?? null,
        user_rule: e.userRule ?? null,
        schedule_id: e.scheduleId,
        schedule_offset_id: e.scheduleOffsetId,
        data_key: e.dataKey,
      })),
    steps: j.steps as Step[],
    paused: j.paused,
    step_counts: Object.fromEntries(
      (j.steps as Step[]).map((s) => [s.key, counts.get(`${j.id}/${s.key}`) ?? { waiting: 0, passed: 0 }]),
    ),
    created_at: j.createdAt.toISOString(),
    updated_at: j.updatedAt.toISOString(),
  }));
}

/**
 * Per journey and step: entries there now, counted on journey_entries_step_idx (index only: the entries
 * in the journey now, never its history), and entries that passed it in all, from the counts the path
 * writer keeps (journey_step_passes: a few rows per step however long the history).
 */
async function stepCounts(ctx: ProjectContext, journeyIds: string[]) {
  const out = new Map<string, { waiting: number; passed: number }>();
  if (!journeyIds.length) return out;
  const rows = await queryRows<{ journey_id: string; step_key: string; waiting: number; passed: number }>(
    ctx.db,
    sql`
    select journey_id, step_key, sum(waiting)::int as waiting, sum(passed)::int as passed from (
      select journey_id, step_key, count(*) as waiting, 0 as passed from journey_entries
      where project_id = ${ctx.projectId}::uuid and journey_id = any(${uuidArray(journeyIds)}) and step_key is not null
      group by 1, 2
      union all
      select journey_id, step_key, 0, sum(passed) from journey_step_passes
      where project_id = ${ctx.projectId}::uuid and journey_id = any(${uuidArray(journeyIds)})
      group by 1, 2) c
    group by 1, 2`,
  );
  for (const r of rows) out.set(`${r.journey_id}/${r.step_key}`, { waiting: r.waiting, passed: r.passed });
  return out;
}
