import type { DbOrTx } from "@/db/client";
import { getSchedule } from "./get-schedule";

/** A definition's offsets in firing order (earliest `before` first, latest `after` last). */
export async function listOffsets(db: DbOrTx, projectId: string, scheduleId: string) {
  const schedule = await getSchedule(db, projectId, scheduleId);
  return { data: schedule.offsets, next_cursor: null };
}
