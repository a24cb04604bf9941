import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { schedules } from "@/db/schema";
import { NotFound, RuleBroken } from "@/lib/http/errors";

/** Deletes a definition with its offsets, assignments and firings. The built-in `anniversary` stays. */
export async function deleteSchedule(db: DbOrTx, projectId: string, scheduleId: string): Promise<void> {
  const [row] = await db.select().from(schedules).where(and(eq(schedules.projectId, projectId), eq(schedules.id, scheduleId)));
  if (!row) throw new NotFound("No schedule with this id in this project.");
  if (row.builtin) throw new RuleBroken(`The built-in ${row.name} schedule cannot be deleted.`);
  await db.delete(schedules).where(and(eq(schedules.projectId, projectId), eq(schedules.id, scheduleId)));
}
