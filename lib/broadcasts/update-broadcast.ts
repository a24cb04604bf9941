import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { broadcasts } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { RuleBroken } from "@/lib/http/errors";
import { checkBroadcastRefs } from "./check-broadcast";
import { getBroadcast } from "./get-broadcast";
import type { updateBroadcastBody } from "./schemas";

/** Changes a broadcast that has not started (422 once it is sending or over). */
export async function updateBroadcast(
  ctx: ProjectContext,
  { id, patch }: { id: string; patch: z.output<typeof updateBroadcastBody> },
) {
  await checkBroadcastRefs(ctx, { templateId: patch.template_id, listId: patch.list_id });
  const rows = await ctx.db
    .update(broadcasts)
    .set({
      ...(patch.name ? { name: patch.name } : {}),
      ...(patch.template_id ? { templateId: patch.template_id } : {}),
      ...(patch.list_id ? { listId: patch.list_id } : {}),
      ...(patch.send_at ? { sendAt: new Date(patch.send_at) } : {}),
      ...(patch.in_user_timezone !== undefined ? { inUserTimezone: patch.in_user_timezone } : {}),
      ...(patch.rate_per_second !== undefined ? { ratePerSecond: patch.rate_per_second } : {}),
      ...(patch.tags ? { tags: patch.tags } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(broadcasts.projectId, ctx.projectId), eq(broadcasts.id, id), eq(broadcasts.state, "scheduled")))
    .returning({ id: broadcasts.id });
  if (!rows.length) {
    await getBroadcast(ctx, id);
    throw new RuleBroken("Only a scheduled broadcast can be changed; this one has started.");
  }
  return getBroadcast(ctx, id);
}
