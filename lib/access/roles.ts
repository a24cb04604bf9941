import { projectRole, type ProjectRole } from "@/db/schema";

export type Role = ProjectRole;
/** Lowest first; each role includes every role before it. */
export const ROLES: readonly Role[] = projectRole.enumValues;

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
