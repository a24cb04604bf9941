import { and, eq } from "drizzle-orm";
import { schedules } from "@/db/schema";
import { NotFound, RuleBroken } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";

/** Deletes a definition with its offsets, assignments and firings. The built-in `anniversary` stays. */
export async function deleteSchedule(ctx: ProjectContext, scheduleId: string): Promise<void> {
  const [row] = await ctx.db
    .select()
    .from(schedules)
    .where(and(eq(schedules.projectId, ctx.projectId), eq(schedules.id, scheduleId)));
  if (!row) throw new NotFound("No schedule with this id in this project.");
  if (row.builtin) throw new RuleBroken(`The built-in ${row.name} schedule cannot be deleted.`);
  await ctx.db.delete(schedules).where(and(eq(schedules.projectId, ctx.projectId), eq(schedules.id, scheduleId)));
}
