import type { ProjectInvite } from "@/db/schema";
import type { InviteFieldsView, InviteView } from "./schemas";

export function inviteState(i: ProjectInvite, now = new Date()): InviteView["state"] {
  if (i.acceptedAt) return "accepted";
  if (i.revokedAt) return "revoked";
  return i.expiresAt <= now ? "expired" : "pending";
}

/** What the project's admins see, with the mail's delivery. */
export function toInviteView(i: ProjectInvite, invitedBy: string | null): InviteView {
  return {
    ...toInviteFields(i, invitedBy),
    delivery: i.delivery,
    delivery_attempts: i.deliveryAttempts,
    delivery_error: i.deliveryError,
    delivered_at: i.deliveredAt?.toISOString() ?? null,
  };
}

/** What the invitee sees: no delivery details (an SMTP error may name our mail servers). */
export function toInviteFields(i: ProjectInvite, invitedBy: string | null): InviteFieldsView {
  return {
    id: i.id,
    project_id: i.projectId,
    email: i.email,
    role: i.role,
    state: inviteState(i),
    invited_by: invitedBy,
    expires_at: i.expiresAt.toISOString(),
    created_at: i.createdAt.toISOString(),
    updated_at: i.updatedAt.toISOString(),
  };
}
