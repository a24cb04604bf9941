import { sql } from "drizzle-orm";
import type { z } from "zod";
import { broadcasts } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { checkBroadcastRefs } from "./check-broadcast";
import { getBroadcast } from "./get-broadcast";
import { MESSAGES_CHANNEL } from "@/lib/messages/notify";
import type { createBroadcastBody } from "./schemas";

/** Schedules a broadcast of a template to a list's members (its recipients are fixed when sending starts). */
export async function createBroadcast(ctx: ProjectContext, input: z.output<typeof createBroadcastBody>) {
  await checkBroadcastRefs(ctx, { templateId: input.template_id, listId: input.list_id });
  const [row] = await ctx.db
    .insert(broadcasts)
    .values({
      projectId: ctx.projectId,
      name: input.name,
      templateId: input.template_id,
      listId: input.list_id,
      sendAt: input.send_at ? new Date(input.send_at) : sql`now()`,
      inUserTimezone: input.in_user_timezone,
      ratePerSecond: input.rate_per_second,
      tags: input.tags,
    })
    .returning({ id: broadcasts.id });
  await ctx.db.execute(sql`select pg_notify(${MESSAGES_CHANNEL}, '')`);
  return getBroadcast(ctx, row!.id);
}
