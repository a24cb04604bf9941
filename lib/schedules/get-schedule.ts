import { sql } from "drizzle-orm";
import { and, eq } from "drizzle-orm";
import { schedules } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import { loadScheduleViews } from "./definitions";
import { queryRows } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";

/** A definition with its offsets and counts of its assignments by state and of skipped firings. */
export async function getSchedule(ctx: ProjectContext, scheduleId: string) {
  const [row] = await ctx.db
    .select()
    .from(schedules)
    .where(and(eq(schedules.projectId, ctx.projectId), eq(schedules.id, scheduleId)));
  if (!row) throw new NotFound("No schedule with this id in this project.");
  const [view] = await loadScheduleViews(ctx, [row]);
  const [counts] = await queryRows<{
    active: number;
    paused: number;
    fired: number;
    skipped_firings: number;
  }>(
    ctx.db,
    sql`
    select
      (select count(*) from schedule_assignments where project_id = ${ctx.projectId} and schedule_id = ${scheduleId} and state = 'active')::int as active,
      (select count(*) from schedule_assignments where project_id = ${ctx.projectId} and schedule_id = ${scheduleId} and state = 'paused')::int as paused,
      (select count(*) from schedule_assignments where project_id = ${ctx.projectId} and schedule_id = ${scheduleId} and state = 'fired')::int as fired,
      (select count(*) from schedule_firings f join schedule_assignments a on a.project_id = f.project_id and a.id = f.assignment_id
        where a.project_id = ${ctx.projectId} and a.schedule_id = ${scheduleId} and f.state = 'skipped')::int as skipped_firings`,
  );
  return {
    ...view!,
    assignments: { active: counts!.active, paused: counts!.paused, fired: counts!.fired },
    skipped_firings: counts!.skipped_firings,
  };
}
