import { z } from "zod";
import { ROLES } from "@/lib/access/roles";
import { paginationQuery } from "@/lib/http/pagination";

export const roleSchema = z
  .enum(ROLES as ["support", "client", "editor", "admin"])
  .meta({ id: "Role", description: "support < client < editor < admin" });

export const memberOutput = z
  .object({
    admin_id: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    role: roleSchema,
    joined_at: z.iso.datetime(),
  })
  .meta({ id: "RosterMember" });

export const inheritedAdminOutput = z
  .object({ admin_id: z.uuid(), email: z.string(), name: z.string().nullable(), org_role: z.enum(["owner", "admin"]) })
  .meta({ id: "InheritedAdministrator" });

export const changeRoleBody = z.object({ role: roleSchema }).strict().meta({ id: "ChangeMemberRole" });

export const listMembersQuery = paginationQuery.meta({ id: "ListRosterQuery" });

export type MemberView = z.infer<typeof memberOutput>;
