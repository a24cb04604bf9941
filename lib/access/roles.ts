import { PROJECT_ROLES, type ProjectRole } from "@/db/roles";

export type Role = ProjectRole;
/** Lowest first; each role includes every role before it. A plain constant: client components import it. */
export const ROLES: readonly Role[] = PROJECT_ROLES;

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return roleRank(role) >= roleRank(minimum);
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** An admin's role in the organization that owns the project (owners and admins administer every project in it). */
export type OrgRole = "owner" | "admin" | "member";
