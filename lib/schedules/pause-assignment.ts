import { sql } from "drizzle-orm";
import { RuleBroken } from "@/lib/http/errors";
import { lockLocated, type AssignmentLocator } from "./locate";
import type { AssignmentView, PauseMode } from "./schemas";
import { loadAssignmentViews } from "./view";
import { inRetryingTransaction } from "@/lib/db/retry";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Pauses a recurring assignment. `immediately` deletes its unfired firings; `after_next_interval`
 * keeps them, so the current cycle still fires, and the cycle then does not advance (completeCycles
 * only advances active assignments). Single schedules and paused ones cannot be paused: 422.
 */
export async function pauseAssignment(
  ctx: ProjectContext,
  { at, mode, now = new Date() }: { at: AssignmentLocator; mode: PauseMode; now?: Date },
): Promise<AssignmentView> {
  return inRetryingTransaction(ctx.db, async (tx) => {
    const row = await lockLocated({ ...ctx, db: tx }, at);
    if (row.interval === null)
      throw new RuleBroken(
        "Only recurring schedules can be paused; this assignment is a single schedule (delete it instead).",
      );
    if (row.state === "paused") throw new RuleBroken("This assignment is already paused; resume it first.");
    if (mode === "immediately") {
      await tx.execute(
        sql`delete from schedule_firings where project_id = ${ctx.projectId} and assignment_id = ${row.id} and state = 'pending'`,
      );
    }
    await tx.execute(sql`
      update schedule_assignments set state = 'paused', pause_mode = ${mode}, updated_at = ${now.toISOString()}::timestamptz
      where project_id = ${ctx.projectId} and id = ${row.id}`);
    return (await loadAssignmentViews({ ...ctx, db: tx }, [row.id]))[0]!;
  });
}
