import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { RuleBroken } from "@/lib/http/errors";
import { getBroadcast } from "./get-broadcast";

/**
 * Cancels a scheduled or sending broadcast: its queued messages no sender holds become `skipped`
 * (`cancelled`) at once; the few a sender holds at this moment finish as they go (sent or failed), each
 * once, and a sender reading the broadcast afterwards skips the rest. `finished_at` is set when none is
 * queued any more.
 */
export async function cancelBroadcast(ctx: ProjectContext, id: string) {
  await withTransaction(ctx.db, async (tx) => {
    const current = await getBroadcast({ ...ctx, db: tx }, id);
    if (current.state === "done" || current.state === "cancelled")
      throw new RuleBroken(`The broadcast is already ${current.state}.`);
    await tx.execute(sql`update broadcasts set state = 'cancelled', updated_at = now(),
        finished_at = case when started_at is null then now() end
      where project_id = ${ctx.projectId}::uuid and id = ${id}::uuid`);
    await tx.execute(sql`update messages set state = 'skipped', reason = 'cancelled', finished_at = now()
      where project_id = ${ctx.projectId}::uuid and broadcast_id = ${id}::uuid and state = 'queued'
        and (lease_until is null or lease_until < now())`);
  });
  return getBroadcast(ctx, id);
}
