import { and, eq, sql } from "drizzle-orm";
import { admins, projectInvites } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { NotFound, RuleBroken } from "@/lib/http/errors";
import { enqueue } from "@/lib/queue/enqueue";
import { inviteState, toInviteView } from "./view";

/**
 * Sends a pending invitation's mail again: a fresh delivery (state `queued`, attempts 0) and a new
 * `mail.invite` job in one transaction. The new delivery id supersedes a job of the old one still retrying,
 * so the invitee gets one mail from this resend, not one per outstanding job.
 */
export async function resendInvite(ctx: ProjectContext, { inviteId, origin }: { inviteId: string; origin: string }) {
  return withTransaction(ctx.db, async (tx) => {
    const [invite] = await tx
      .select()
      .from(projectInvites)
      .where(and(eq(projectInvites.id, inviteId), eq(projectInvites.projectId, ctx.projectId)))
      .for("update");
    if (!invite) throw new NotFound("No such invitation in this project.");
    const state = inviteState(invite);
    if (state !== "pending")
      throw new RuleBroken(`This invitation is ${state}; only a pending invitation's mail can be sent again.`);
    const deliveryId = crypto.randomUUID();
    const [row] = await tx
      .update(projectInvites)
      .set({
        deliveryId,
        delivery: "queued",
        deliveryAttempts: 0,
        deliveryError: null,
        deliveredAt: null,
        updatedAt: sql`now()`,
      })
      .where(eq(projectInvites.id, invite.id))
      .returning();
    await enqueue(tx, "mail.invite", [{ projectId: ctx.projectId, inviteId: invite.id, deliveryId, origin }]);
    const [inviter] = row!.invitedBy
      ? await tx.select({ email: admins.email }).from(admins).where(eq(admins.id, row!.invitedBy))
      : [];
    return toInviteView(row!, inviter?.email ?? null);
  });
}
