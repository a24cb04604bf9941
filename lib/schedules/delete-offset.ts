import { sql } from "drizzle-orm";
import { NotFound, RuleBroken } from "@/lib/http/errors";
import { completeCycles } from "./cycles";
import { withTransaction } from "@/lib/db/transaction";
import { queryRows } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Removes one offset of a definition with its firings. A definition keeps at least one offset (422).
 * Assignments whose current cycle was only waiting on this offset's firing have that cycle closed
 * (a single schedule becomes fired; a recurring one advances), exactly as if the firing had fired.
 */
export async function deleteOffset(
  ctx: ProjectContext,
  { scheduleId, offsetId, now = new Date() }: { scheduleId: string; offsetId: string; now?: Date },
): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    // Lock the definition's offsets so two concurrent deletes cannot both pass the last-offset check.
    const offsets = await queryRows<{ id: string }>(
      tx,
      sql`
      select id from schedule_offsets where project_id = ${ctx.projectId} and schedule_id = ${scheduleId} for update`,
    );
    if (!offsets.some((o) => o.id === offsetId)) throw new NotFound("No such offset on this schedule.");
    if (offsets.length === 1)
      throw new RuleBroken("A schedule keeps at least one offset; add another before removing this one.");
    // The offset's pending firings, through the schedule's assignments: firings have no index by offset,
    // and the key's prefix (project, assignment, offset) finds an assignment's firing of it in one probe.
    const affected = await queryRows<{ id: string }>(
      tx,
      sql`
      select a.id from schedule_assignments a
      where a.project_id = ${ctx.projectId} and a.schedule_id = ${scheduleId} and exists (
        select 1 from schedule_firings f
        where f.project_id = a.project_id and f.assignment_id = a.id and f.offset_id = ${offsetId} and f.state = 'pending')
      order by a.id for update`,
    );
    await tx.execute(sql`delete from schedule_offsets where project_id = ${ctx.projectId} and id = ${offsetId}`);
    if (affected.length) {
      await completeCycles(
        { ...ctx, db: tx },
        { keys: affected.map((a) => ({ projectId: ctx.projectId, id: a.id })), now },
      );
    }
  });
}
