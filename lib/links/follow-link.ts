import { and, eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { recordEngagement } from "@/lib/reports/record-engagement";
import { readLinkToken } from "./tokens";
import { withTransaction } from "@/lib/db/transaction";
import { type AppContext, systemContext } from "@/lib/access/context";

/**
 * Resolves a tracked link. Returns the destination for a valid token (null otherwise: the caller answers
 * 404 and redirects nowhere). With `record` (GET, not HEAD) the click goes through the pipeline as
 * `link.clicked` (credited to the message the link came in, when it names one); a recipient erased since the send still gets redirected, but nothing is recorded.
 */
export async function followLink(
  ctx: AppContext,
  opts: { token: string; record: boolean; userAgent?: string | null },
): Promise<string | null> {
  const { token } = opts;
  const claim = readLinkToken(token);
  if (!claim) return null;
  if (!opts.record) return claim.url;
  await withTransaction(ctx.db, async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.projectId, claim.projectId), eq(users.id, claim.userId)));
    if (!user) return;
    const pctx = systemContext(tx, claim.projectId);
    await recordSystemEvents(pctx, [
      {
        name: "link.clicked",
        userId: user.id,
        data: {
          campaign_id: claim.campaignId,
          original_url: claim.url,
          ...(claim.messageId ? { message_id: claim.messageId } : {}),
          ...(opts.userAgent ? { user_agent: opts.userAgent.slice(0, 512) } : {}),
        },
      },
    ]);
    // Last: its rollup rows are shared with the broadcast's other clicks and held until the commit.
    if (claim.messageId) await recordEngagement(pctx, { messageId: claim.messageId, kind: "clicked" });
  });
  return claim.url;
}
