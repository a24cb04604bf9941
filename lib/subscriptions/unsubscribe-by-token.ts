import { and, eq } from "drizzle-orm";
import { subscriptionGroups } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import { applyChanges } from "./apply-changes";
import { recordEngagement } from "@/lib/reports/record-engagement";
import { readUnsubscribeToken } from "./tokens";
import { inRetryingTransaction } from "@/lib/db/retry";
import { type AppContext, systemContext } from "@/lib/access/context";

/**
 * One-click unsubscribe (RFC 8058 POST, or the button on the confirmation page). The token alone
 * authorizes it; a tampered or unsigned one is a 404 that changes nothing. Repeating it is harmless.
 */
export async function unsubscribeByToken(
  ctx: AppContext,
  { token, source }: { token: string; source: "one_click" | "unsubscribe_page" },
) {
  const claim = readUnsubscribeToken(token);
  if (!claim) throw new NotFound("This unsubscribe link is not valid.");
  return inRetryingTransaction(ctx.db, async (tx) => {
    const [group] = await tx
      .select()
      .from(subscriptionGroups)
      .where(and(eq(subscriptionGroups.projectId, claim.projectId), eq(subscriptionGroups.id, claim.groupId)));
    if (!group) throw new NotFound("This subscription no longer exists.");
    const changed = await applyChanges(systemContext(tx, claim.projectId), {
      userId: claim.userId,
      changes: [{ group, state: "unsubscribed" }],
      source,
    });
    if (changed > 0 && claim.messageId)
      await recordEngagement(systemContext(tx, claim.projectId), { messageId: claim.messageId, kind: "unsubscribed" });
    return { group: group.name, channel: group.channel, changed: changed > 0 };
  });
}
