import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { ProjectContext } from "@/lib/access/context";
import { admins, projectInvites, projects } from "@/db/schema";
import { mailRetryPolicy } from "@/lib/mail/retry-policy";
import { sendMail } from "@/lib/mail/send-mail";
import type { JobPayload } from "@/lib/queue/jobs";
import { inviteMail } from "./invite-mail";

/** Longest error text kept on the invitation (SMTP replies can be long; the first line says what failed). */
const MAX_ERROR = 500;

/**
 * The worker's side of a `mail.invite` job: sends the invitation's current mail and records the outcome on
 * the invitation. A job whose delivery id was superseded (resend, re-invite) or whose invitation closed
 * (accepted, revoked, expired) sends nothing. A failed attempt records its error and throws, so pg-boss
 * retries with backoff; the last allowed attempt marks the delivery `failed`.
 */
export async function deliverInviteMail(
  ctx: ProjectContext<Db>,
  job: Omit<JobPayload<"mail.invite">, "projectId">,
): Promise<void> {
  const { db } = ctx;
  const current = and(
    eq(projectInvites.id, job.inviteId),
    eq(projectInvites.projectId, ctx.projectId),
    eq(projectInvites.deliveryId, job.deliveryId),
  );
  // Count the attempt first (its own statement), so a worker killed mid-send still used one up.
  const [invite] = await db
    .update(projectInvites)
    .set({ deliveryAttempts: sql`${projectInvites.deliveryAttempts} + 1` })
    .where(
      and(
        current,
        isNull(projectInvites.acceptedAt),
        isNull(projectInvites.revokedAt),
        sql`${projectInvites.expiresAt} > now()`,
        sql`${projectInvites.delivery} <> 'sent'`,
      ),
    )
    .returning();
  if (!invite) return;
  const [about] = await db
    .select({ projectName: projects.name, inviter: admins.email })
    .from(projects)
    .leftJoin(admins, eq(admins.id, sql`${invite.invitedBy}::uuid`))
    .where(eq(projects.id, invite.projectId));
  try {
    await sendMail(
      inviteMail({
        to: invite.email,
        role: invite.role,
        projectName: about!.projectName,
        inviter: about!.inviter,
        expiresAt: invite.expiresAt,
        origin: job.origin,
      }),
    );
  } catch (err) {
    const last = invite.deliveryAttempts > mailRetryPolicy().retryLimit;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, MAX_ERROR);
    await db
      .update(projectInvites)
      .set({ delivery: last ? "failed" : "queued", deliveryError: message })
      .where(current);
    throw err;
  }
  await db
    .update(projectInvites)
    .set({ delivery: "sent", deliveryError: null, deliveredAt: sql`now()` })
    .where(current);
}
