import { RuleBroken } from "@/lib/http/errors";
import type { Actor } from "./context";
import { ROLES, roleRank, type OrgRole, type Role } from "./roles";

/** The caller's role for rank rules; the service itself (CLI, worker) ranks as admin. */
export function actorRole(actor: Actor): Role {
  return actor.kind === "system" ? "admin" : actor.role;
}

/** Never grant (by roster, invitation or API key) a role above the caller's own. */
export function assertMayGrant(actor: Actor, role: Role, what = "assign"): void {
  const mine = actorRole(actor);
  if (roleRank(role) > roleRank(mine)) {
    throw new RuleBroken(`You cannot ${what} the ${role} role: it is above your own (${mine}).`);
  }
}

/**
 * Authority for "outranks": an organization's owner above its admins, both above every project role
 * (they administer all the org's projects); otherwise the project role. The service itself outranks all.
 */
function authority(role: Role, orgRole: OrgRole | null | undefined): number {
  if (orgRole === "owner") return ROLES.length + 1;
  if (orgRole === "admin") return ROLES.length;
  return roleRank(role);
}

function rankName(role: Role, orgRole: OrgRole | null | undefined): string {
  return orgRole === "owner" || orgRole === "admin" ? `an organization ${orgRole}` : role;
}

/** Never change or remove a member who outranks the caller (an org owner outranks a project admin). */
export function assertNotOutranked(actor: Actor, targetRole: Role, targetOrgRole?: OrgRole | null): void {
  if (actor.kind === "system") return;
  const callerOrgRole = actor.kind === "admin" ? actor.orgRole : null;
  if (authority(targetRole, targetOrgRole) > authority(actor.role, callerOrgRole)) {
    throw new RuleBroken(
      `This member is ${rankName(targetRole, targetOrgRole)}, which outranks your ${rankName(actor.role, callerOrgRole)} role.`,
    );
  }
}
