import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { subscriptionChanges, userChannelOptOuts, type MessageChannel, type SubscriptionSource } from "@/db/schema";

/**
 * Sets or clears a whole-channel opt-out (SMS STOP / START) and appends it to the history with no group.
 * The caller holds the user's lock (see applyChanges). Returns whether anything changed.
 */
export async function setChannelOptOut(tx: DbOrTx, projectId: string, userId: string, channel: MessageChannel, optedOut: boolean, source: SubscriptionSource, detail: Record<string, unknown> = {}): Promise<boolean> {
  const changed = optedOut
    ? await tx.insert(userChannelOptOuts).values({ projectId, userId, channel, source }).onConflictDoNothing().returning({ userId: userChannelOptOuts.userId })
    : await tx
        .delete(userChannelOptOuts)
        .where(and(eq(userChannelOptOuts.projectId, projectId), eq(userChannelOptOuts.userId, userId), eq(userChannelOptOuts.channel, channel)))
        .returning({ userId: userChannelOptOuts.userId });
  if (!changed.length) return false;
  await tx.insert(subscriptionChanges).values({
    projectId,
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
