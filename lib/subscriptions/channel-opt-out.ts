import { eq } from "drizzle-orm";
import { inProject } from "@/lib/db/in-project";
import { subscriptionChanges, userChannelOptOuts, type MessageChannel, type SubscriptionSource } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Sets or clears a whole-channel opt-out (SMS STOP / START) and appends it to the history with no group.
 * The caller holds the user's lock (see applyChanges). Returns whether anything changed.
 */
export async function setChannelOptOut(
  ctx: ProjectContext,
  {
    userId,
    channel,
    optedOut,
    source,
    detail = {},
  }: {
    userId: string;
    channel: MessageChannel;
    optedOut: boolean;
    source: SubscriptionSource;
    detail?: Record<string, unknown>;
  },
): Promise<boolean> {
  const changed = optedOut
    ? await ctx.db
        .insert(userChannelOptOuts)
        .values({ projectId: ctx.projectId, userId, channel, source })
        .onConflictDoNothing()
        .returning({ userId: userChannelOptOuts.userId })
    : await ctx.db
        .delete(userChannelOptOuts)
        .where(
          inProject(
            ctx,
            userChannelOptOuts,
            eq(userChannelOptOuts.userId, userId),
            eq(userChannelOptOuts.channel, channel),
          ),
        )
        .returning({ userId: userChannelOptOuts.userId });
  if (!changed.length) return false;
  await ctx.db.insert(subscriptionChanges).values({
    projectId: ctx.projectId,
    userId,
    groupId: null,
    channel,
    previousState: optedOut ? null : "unsubscribed",
    state: optedOut ? "unsubscribed" : null,
    source,
    detail: { ...detail, scope: "channel" },
  });
  return true;
}
