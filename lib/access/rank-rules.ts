import { RuleBroken } from "@/lib/http/errors";
import type { Actor } from "./context";
import { roleRank, type Role } from "./roles";

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

/** Never change or remove a member who outranks the caller. */
export function assertNotOutranked(actor: Actor, targetRole: Role): void {
  const mine = actorRole(actor);
  if (roleRank(targetRole) > roleRank(mine)) {
    throw new RuleBroken(`This member is ${targetRole}, which outranks your ${mine} role.`);
  }
}
