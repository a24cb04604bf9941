import { and, count, eq } from "drizzle-orm";
import { scheduleOffsets, schedules } from "@/db/schema";
import { Conflict, NotFound, RuleBroken } from "@/lib/http/errors";

/** The default offset plus the 50 a definition may be created with; GET .../offsets lists them whole. */
export const MAX_OFFSETS = 51;
import { checkInterval } from "./interval";
import type { OffsetInput } from "./schemas";
import { withTransaction } from "@/lib/db/transaction";
import { enqueue } from "@/lib/queue/enqueue";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Adds an offset to a definition. A duplicate (same interval, same direction; `1 week` equals `7 days`)
 * is a 409. The offset is marked `backfill: queued` and its `schedules.backfill-offset` job sent in the same
 * transaction; the worker then makes its firings for every active assignment (see backfill-offset.ts), so a definition
 * with millions of assignments answers at once. (Always, not only when assignments exist now: one
 * being created concurrently may have made its firings before this offset was visible.)
 */
export async function addOffset(
  ctx: ProjectContext,
  { scheduleId, body: input }: { scheduleId: string; body: OffsetInput },
) {
  const checked = await checkInterval(ctx, { value: input.offset, path: "offset", zero: true });
  return withTransaction(ctx.db, async (tx) => {
    const [schedule] = await tx
      .select()
      .from(schedules)
      .where(and(eq(schedules.projectId, ctx.projectId), eq(schedules.id, scheduleId)));
    if (!schedule) throw new NotFound("No schedule with this id in this project.");
    const [{ n }] = await tx
      .select({ n: count() })
      .from(scheduleOffsets)
      .where(and(eq(scheduleOffsets.projectId, ctx.projectId), eq(scheduleOffsets.scheduleId, scheduleId)));
    if (n >= MAX_OFFSETS) throw new RuleBroken(`A schedule holds at most ${MAX_OFFSETS} offsets; remove one first.`);
    const [row] = await tx
      .insert(scheduleOffsets)
      .values({
        projectId: ctx.projectId,
        scheduleId,
        offset: checked.text,
        offsetKey: checked.canonical,
        direction: input.direction,
        backfill: "queued",
      })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      throw new Conflict(`The schedule already has the offset ${checked.text} ${input.direction}.`, {
        errors: [{ path: "offset", message: "duplicate offset" }],
      });
    }
    await enqueue(tx, "schedules.backfill-offset", [{ projectId: ctx.projectId, offsetId: row.id }]);
    return { id: row.id, offset: row.offset, direction: row.direction, created_at: row.createdAt.toISOString() };
  });
}
