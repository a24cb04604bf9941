import type { ProjectInvite } from "@/db/schema";
import type { InviteView } from "./schemas";

export function inviteState(i: ProjectInvite, now = new Date()): InviteView["state"] {
  if (i.acceptedAt) return "accepted";
  if (i.revokedAt) return "revoked";
  return i.expiresAt <= now ? "expired" : "pending";
}

export function toInviteView(i: ProjectInvite, invitedBy: string | null): InviteView {
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
