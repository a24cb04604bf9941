import { and, eq, sql } from "drizzle-orm";
import { projectInvites } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound, RuleBroken } from "@/lib/http/errors";

/** Revokes an open invitation of the project; an accepted or already revoked one cannot be. */
export async function revokeInvite(ctx: ProjectContext, inviteId: string): Promise<void> {
  const [invite] = await ctx.db
    .select()
    .from(projectInvites)
    .where(and(eq(projectInvites.id, inviteId), eq(projectInvites.projectId, ctx.projectId)))
    .limit(1);
  if (!invite) throw new NotFound("No such invitation in this project.");
  if (invite.acceptedAt)
    throw new RuleBroken("This invitation was already accepted; remove the member from the roster instead.");
  if (invite.revokedAt) throw new RuleBroken("This invitation was already revoked.");
  await ctx.db
    .update(projectInvites)
    .set({ revokedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(projectInvites.id, invite.id));
}
