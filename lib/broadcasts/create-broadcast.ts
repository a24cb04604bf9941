import { sql } from "drizzle-orm";
import type { z } from "zod";
import { broadcasts } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { setGoal } from "@/lib/reports/set-goal";
import { checkBroadcastRefs, checkBroadcastTest } from "./check-broadcast";
import { getBroadcast } from "./get-broadcast";
import { MESSAGES_CHANNEL } from "@/lib/messages/notify";
import type { createBroadcastBody } from "./schemas";

/**
 * Schedules a broadcast of a template to a list's members (its recipients are fixed when sending starts),
 * or of an A/B test's variants (variant-test.ts).
 */
export async function createBroadcast(ctx: ProjectContext, input: z.output<typeof createBroadcastBody>) {
  const templateId = input.template_id ?? input.variants![0]!.template_id;
  await checkBroadcastRefs(ctx, { templateId, listId: input.list_id });
  await checkBroadcastTest(ctx, {
    templateId,
    variants: input.variants,
    test: input.test,
    hasGoal: input.goal !== null,
    inUserTimezone: input.in_user_timezone,
  });
  const row = await withTransaction(ctx.db, async (tx) => {
    const [b] = await tx
      .insert(broadcasts)
      .values({
        projectId: ctx.projectId,
        name: input.name,
        templateId,
        listId: input.list_id,
        sendAt: input.send_at ? new Date(input.send_at) : sql`now()`,
        inUserTimezone: input.in_user_timezone,
        ratePerSecond: input.rate_per_second,
        tags: input.tags,
        variants: input.variants,
        test: input.test,
      })
      .returning({ id: broadcasts.id });
    await setGoal({ ...ctx, db: tx }, { ownerKind: "broadcast", ownerId: b!.id, goal: input.goal });
    return b;
  });
  await ctx.db.execute(sql`select pg_notify(${MESSAGES_CHANNEL}, '')`);
  return getBroadcast(ctx, row!.id);
}
