import { getSchedule } from "./get-schedule";
import type { ProjectContext } from "@/lib/access/context";

/** A definition's offsets in firing order (earliest `before` first, latest `after` last). */
export async function listOffsets(ctx: ProjectContext, scheduleId: string) {
  const schedule = await getSchedule(ctx, scheduleId);
  return { data: schedule.offsets, next_cursor: null };
}
