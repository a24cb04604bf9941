import { and, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { projectInvites, projects } from "@/db/schema";
import { type ProjectContext } from "@/lib/access/context";
import { assertMayGrant } from "@/lib/access/rank-rules";
import { RuleBroken } from "@/lib/http/errors";
import { DEFAULT_INVITE_LIFETIME_MS, MAX_INVITE_LIFETIME_MS, parseExpiresIn } from "./expires-in";
import { sendInviteMail } from "./invite-mail";
import type { createInviteBody } from "./schemas";
import { toInviteView } from "./view";
import { withTransaction } from "@/lib/db/transaction";

/**
 * Invites an address with a role at or below the caller's. Re-inviting an address that already has an
 * open invitation updates that one (role, expiry, inviter) instead of adding a second. The mail is sent
 * after the invitation is committed.
 */
export async function createInvite(ctx: ProjectContext, input: z.output<typeof createInviteBody>, origin: string) {
  assertMayGrant(ctx.actor, input.role, "invite someone as");
  const lifetime = input.expires_in ? parseExpiresIn(input.expires_in)! : DEFAULT_INVITE_LIFETIME_MS;
  if (lifetime > MAX_INVITE_LIFETIME_MS) throw new RuleBroken("An invitation may last at most 30 days (expires_in up to 30d).");
  const email = input.email.trim().toLowerCase();
  const invitedBy = ctx.actor.kind === "admin" ? ctx.actor.adminId : null;
  const expiresAt = new Date(Date.now() + lifetime);

  const { row, created, projectName } = await withTransaction(ctx.db, async (tx) => {
    const [project] = await tx.select({ name: projects.name }).from(projects).where(eq(projects.id, ctx.projectId)).for("update");
    const open = and(eq(projectInvites.projectId, ctx.projectId), sql`lower(${projectInvites.email}) = ${email}`, isNull(projectInvites.acceptedAt), isNull(projectInvites.revokedAt));
    const [existing] = await tx.select().from(projectInvites).where(open).limit(1);
    if (existing) {
      const [row] = await tx
        .update(projectInvites)
        .set({ role: input.role, expiresAt, invitedBy, createdAt: existing.expiresAt <= new Date() ? sql`now()` : existing.createdAt, updatedAt: sql`now()` })
        .where(eq(projectInvites.id, existing.id))
        .returning();
      return { row: row!, created: false, projectName: project!.name };
    }
    const [row] = await tx.insert(projectInvites).values({ projectId: ctx.projectId, email, role: input.role, invitedBy, expiresAt }).returning();
    return { row: row!, created: true, projectName: project!.name };
  });

  const inviter = ctx.actor.kind === "admin" ? ctx.actor.email : null;
  await sendInviteMail({ to: email, role: input.role, projectName, inviter, expiresAt, origin });
  return { invite: toInviteView(row, inviter), created };
}
