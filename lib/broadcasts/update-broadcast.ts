import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { broadcasts } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { RuleBroken } from "@/lib/http/errors";
import { withTransaction } from "@/lib/db/transaction";
import { setGoal } from "@/lib/reports/set-goal";
import { checkBroadcastRefs, checkBroadcastTest } from "./check-broadcast";
import { getBroadcast } from "./get-broadcast";
import type { updateBroadcastBody } from "./schemas";

/** Changes a broadcast that has not started (422 once it is sending or over). */
export async function updateBroadcast(
  ctx: ProjectContext,
  { id, patch }: { id: string; patch: z.output<typeof updateBroadcastBody> },
) {
  await checkBroadcastRefs(ctx, { templateId: patch.template_id, listId: patch.list_id });
  if (patch.variants !== undefined || patch.goal !== undefined || patch.template_id || patch.in_user_timezone) {
    const now = await getBroadcast(ctx, id);
    await checkBroadcastTest(ctx, {
      templateId: patch.template_id ?? now.template_id,
      variants: patch.variants !== undefined ? patch.variants : now.variants,
      test: patch.test !== undefined ? patch.test : now.test,
      hasGoal: (patch.goal !== undefined ? patch.goal : now.goal) !== null,
      inUserTimezone: patch.in_user_timezone ?? now.in_user_timezone,
    });
  }
  const rows = await withTransaction(ctx.db, async (tx) => {
    const changed = await tx
      .update(broadcasts)
      .set({
        ...(patch.name ? { name: patch.name } : {}),
        ...(patch.template_id ? { templateId: patch.template_id } : {}),
        ...(patch.list_id ? { listId: patch.list_id } : {}),
        ...(patch.send_at ? { sendAt: new Date(patch.send_at) } : {}),
        ...(patch.in_user_timezone !== undefined ? { inUserTimezone: patch.in_user_timezone } : {}),
        ...(patch.rate_per_second !== undefined ? { ratePerSecond: patch.rate_per_second } : {}),
        ...(patch.tags ? { tags: patch.tags } : {}),
        ...(patch.variants !== undefined ? { variants: patch.variants, test: patch.test } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(broadcasts.projectId, ctx.projectId), eq(broadcasts.id, id), eq(broadcasts.state, "scheduled")))
      .returning({ id: broadcasts.id });
    if (changed.length && patch.goal !== undefined)
      await setGoal({ ...ctx, db: tx }, { ownerKind: "broadcast", ownerId: id, goal: patch.goal });
    return changed;
  });
  if (!rows.length) {
    await getBroadcast(ctx, id);
    throw new RuleBroken("Only a scheduled broadcast can be changed; this one has started.");
  }
  return getBroadcast(ctx, id);
}
