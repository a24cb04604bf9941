import { sql } from "drizzle-orm";
import { RuleBroken } from "@/lib/http/errors";
import { completeCycles, materializeFirings, nextCycleSql } from "./cycles";
import { lockLocated, type AssignmentLocator } from "./locate";
import type { AssignmentView, ResumeMode } from "./schemas";
import { loadAssignmentViews } from "./view";
import { inRetryingTransaction } from "@/lib/db/retry";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Resumes a paused assignment. `immediately` rebases the anchor to now: cycle 0 occurs now, so its
 * firings (offset 0 after) fire at once, and later ones follow from the new anchor. `at_next_interval`
 * keeps the anchor: if the current cycle still has pending firings (paused after_next_interval) it
 * just carries on; otherwise the next cycle is the first `anchor + k * interval` after now, which may be
 * the paused cycle itself when its occurrence is still ahead (a pause `immediately` left it with no
 * pending firings; re-making them keeps any that already fired, so nothing fires twice).
 * Resuming an assignment that is not paused is a 422.
 */
export async function resumeAssignment(
  ctx: ProjectContext,
  { at, mode, now = new Date() }: { at: AssignmentLocator; mode: ResumeMode; now?: Date },
): Promise<AssignmentView> {
  return inRetryingTransaction(ctx.db, async (tx) => {
    const row = await lockLocated({ ...ctx, db: tx }, at);
    if (row.state !== "paused")
      throw new RuleBroken(`This assignment is ${row.state}, not paused; only a paused assignment can be resumed.`);
    const t = sql`${now.toISOString()}::timestamptz`;
    const key = { projectId: ctx.projectId, id: row.id };
    if (mode === "immediately") {
      // Cycles count from the new anchor, so the old firings and their (offset, cycle) keys go.
      await tx.execute(
        sql`delete from schedule_firings where project_id = ${ctx.projectId} and assignment_id = ${row.id}`,
      );
      await tx.execute(sql`
        update schedule_assignments set state = 'active', pause_mode = null, anchor = ${t}, cycle = 0, occurrence_at = ${t}, updated_at = ${t}
        where project_id = ${ctx.projectId} and id = ${row.id}`);
    } else {
      await tx.execute(sql`
        update schedule_assignments a set state = 'active', pause_mode = null, updated_at = ${t},
          cycle = n.k, occurrence_at = a.anchor + n.k * a.interval::interval
        from (select case
                when exists (select 1 from schedule_firings f where f.project_id = ${ctx.projectId} and f.assignment_id = ${row.id} and f.cycle = ${row.cycle}::bigint and f.state = 'pending')
                then ${row.cycle}::bigint
                else greatest(${row.cycle}::bigint, ${nextCycleSql(sql`${row.anchor.toISOString()}::timestamptz`, sql`${row.interval}::interval`, t)})
              end as k) n
        where a.project_id = ${ctx.projectId} and a.id = ${row.id}`);
    }
    await materializeFirings({ ...ctx, db: tx }, { keys: [key], now });
    await completeCycles({ ...ctx, db: tx }, { keys: [key], now });
    return (await loadAssignmentViews({ ...ctx, db: tx }, [row.id]))[0]!;
  });
}
