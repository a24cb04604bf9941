import { scheduleOffsets, schedules } from "@/db/schema";
import { Conflict, Invalid } from "@/lib/http/errors";
import { DEFAULT_OFFSET, loadScheduleViews } from "./definitions";
import { checkInterval } from "./interval";
import type { ScheduleInput, ScheduleView } from "./schemas";
import { withTransaction } from "@/lib/db/transaction";
import type { ProjectContext } from "@/lib/access/context";

/** A new definition with the default `0 minutes after` offset plus any given ones. Same name: 409. */
export async function createSchedule(ctx: ProjectContext, input: ScheduleInput): Promise<ScheduleView> {
  const offsets: { offset: string; offsetKey: string; direction: "before" | "after" }[] = [];
  for (const [i, o] of (input.offsets ?? []).entries()) {
    const checked = await checkInterval(ctx, { value: o.offset, path: `offsets[${i}].offset`, zero: true });
    offsets.push({ offset: checked.text, offsetKey: checked.canonical, direction: o.direction });
  }
  const keys = new Set([`${DEFAULT_OFFSET.offsetKey}|after`]);
  for (const [i, o] of offsets.entries()) {
    const key = `${o.offsetKey}|${o.direction}`;
    if (keys.has(key))
      throw new Invalid(`Offset ${o.offset} ${o.direction} is given twice (the default is 0 minutes after).`, {
        errors: [{ path: `offsets[${i}]`, message: "duplicate offset" }],
      });
    keys.add(key);
  }
  return withTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .insert(schedules)
      .values({ projectId: ctx.projectId, name: input.name, type: input.type })
      .onConflictDoNothing()
      .returning();
    if (!row)
      throw new Conflict(`A schedule named ${input.name} already exists in this project.`, {
        errors: [{ path: "name", message: "already exists" }],
      });
    await tx
      .insert(scheduleOffsets)
      .values([DEFAULT_OFFSET, ...offsets].map((o) => ({ projectId: ctx.projectId, scheduleId: row.id, ...o })));
    return (await loadScheduleViews({ ...ctx, db: tx }, [row]))[0]!;
  });
}
