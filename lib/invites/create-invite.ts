import { and, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { projectInvites, projects } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { assertMayGrant } from "@/lib/access/rank-rules";
import { RuleBroken } from "@/lib/http/errors";
import { DEFAULT_INVITE_LIFETIME_MS, MAX_INVITE_LIFETIME_MS, parseExpiresIn } from "./expires-in";
import { enqueue } from "@/lib/queue/enqueue";
import type { createInviteBody } from "./schemas";
import { toInviteView } from "./view";
import { withTransaction } from "@/lib/db/transaction";

/**
 * Invites an address with a role at or below the caller's. Re-inviting an address that already has an
 * open invitation updates that one (role, expiry, inviter) instead of adding a second. Either way its mail
 * is a `mail.invite` job enqueued in the same transaction: the answer never waits on (or fails with) SMTP,
 * and the worker retries the mail for over a day (lib/mail/retry-policy.ts).
 */
export async function createInvite(
  ctx: ProjectContext,
  { body: input, origin }: { body: z.output<typeof createInviteBody>; origin: string },
) {
  assertMayGrant(ctx.actor, input.role, "invite someone as");
  const lifetime = input.expires_in ? parseExpiresIn(input.expires_in)! : DEFAULT_INVITE_LIFETIME_MS;
  if (lifetime > MAX_INVITE_LIFETIME_MS)
    throw new RuleBroken("An invitation may last at most 30 days (expires_in up to 30d).");
  const email = input.email.trim().toLowerCase();
  const invitedBy = ctx.actor.kind === "admin" ? ctx.actor.adminId : null;
  const expiresAt = new Date(Date.now() + lifetime);

  // A new delivery id supersedes any mail job of this invitation still retrying.
  const delivery = {
    deliveryId: crypto.randomUUID(),
    delivery: "queued" as const,
    deliveryAttempts: 0,
    deliveryError: null,
    deliveredAt: null,
  };

  const { row, created } = await withTransaction(ctx.db, async (tx) => {
    // Serializes invitations of one project, so two re-invites of one address cannot both insert.
    await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, ctx.projectId)).for("update");
    const open = and(
      eq(projectInvites.projectId, ctx.projectId),
      sql`lower(${projectInvites.email}) = ${email}`,
      isNull(projectInvites.acceptedAt),
      isNull(projectInvites.revokedAt),
    );
    const [existing] = await tx.select().from(projectInvites).where(open).limit(1);
    if (existing) {
      const [row] = await tx
        .update(projectInvites)
        .set({
          role: input.role,
          expiresAt,
          invitedBy,
          createdAt: existing.expiresAt <= new Date() ? sql`now()` : existing.createdAt,
          updatedAt: sql`now()`,
          ...delivery,
        })
        .where(eq(projectInvites.id, existing.id))
        .returning();
      await enqueue(tx, "mail.invite", [
        { projectId: ctx.projectId, inviteId: row!.id, deliveryId: delivery.deliveryId, origin },
      ]);
      return { row: row!, created: false };
    }
    const [row] = await tx
      .insert(projectInvites)
      .values({ projectId: ctx.projectId, email, role: input.role, invitedBy, expiresAt, ...delivery })
      .returning();
    await enqueue(tx, "mail.invite", [
      { projectId: ctx.projectId, inviteId: row!.id, deliveryId: delivery.deliveryId, origin },
    ]);
    return { row: row!, created: true };
  });

  const inviter = ctx.actor.kind === "admin" ? ctx.actor.email : null;
  return { invite: toInviteView(row, inviter), created };
}
