import { and, eq, inArray, sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/sql";
import type { Step } from "./step-schema";
import { journeyEntrances, type Journey } from "@/db/schema";
import type { JourneyView } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";
import { goalsOf } from "@/lib/reports/set-goal";

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
  const counts = await stepCounts(ctx, rows);
  const goals = await goalsOf(ctx, { ownerKind: "journey", ownerIds: rows.map((r) => r.id) });
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
    goal: goals.get(j.id) ?? null,
    tags: j.tags,
    step_counts: Object.fromEntries(
      (j.steps as Step[]).map((s) => [
        s.key,
        counts.get(`${j.id}/${s.key}`) ?? { waiting: 0, waiting_capped: false, passed: 0 },
      ]),
    ),
    created_at: j.createdAt.toISOString(),
    updated_at: j.updatedAt.toISOString(),
  }));
}

/**
 * Counted entries at one step, at most: past it the view says `waiting_capped` (the console shows
 * "10,000+"). A count walks index entries, so the bound keeps a journey view to a few milliseconds per
 * step however many users wait.
 */
export const WAITING_BOUND = 10_000;

/**
 * Per journey and step: entries there now, counted index-only on journey_entries_step_idx up to
 * WAITING_BOUND per step (one bounded probe per step key, never the journey's history), and entries that
 * passed it in all, from the counts the path writer keeps (journey_step_passes: a few rows per step).
 */
async function stepCounts(ctx: ProjectContext, journeys: Journey[]) {
  const out = new Map<string, { waiting: number; waiting_capped: boolean; passed: number }>();
  const keys = journeys.flatMap((j) => (j.steps as Step[]).map((s) => ({ journey_id: j.id, step_key: s.key })));
  if (!keys.length) return out;
  const rows = await queryRows<{ journey_id: string; step_key: string; waiting: number; passed: number }>(
    ctx.db,
    sql`
    select k.journey_id, k.step_key,
      (select count(*) from (select 1 from journey_entries e
        where e.project_id = ${ctx.projectId}::uuid and e.journey_id = k.journey_id and e.step_key = k.step_key
        limit ${WAITING_BOUND + 1}) b)::int as waiting,
      (select coalesce(sum(c.passed), 0) from journey_step_passes c
        where c.project_id = ${ctx.projectId}::uuid and c.journey_id = k.journey_id and c.step_key = k.step_key)::int as passed
    from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(journey_id uuid, step_key text)`,
  );
  for (const r of rows)
    out.set(`${r.journey_id}/${r.step_key}`, {
      waiting: Math.min(r.waiting, WAITING_BOUND),
      waiting_capped: r.waiting > WAITING_BOUND,
      passed: r.passed,
    });
  return out;
}
