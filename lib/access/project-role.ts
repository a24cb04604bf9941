import { and, eq, sql } from "drizzle-orm";
import { adminOrgMembers, projectMembers, projects } from "@/db/schema";
import type { OrgRole, Role } from "./roles";
import type { AppContext, ProjectContext } from "./context";

/**
 * An admin's effective role in a project: admin when they own or administer the project's org (inherited,
 * off the roster), otherwise their roster role; null when they have none. `undefined` project: not found.
 */
export async function projectRoleOf(
  ctx: AppContext,
  { adminId, projectId }: { adminId: string; projectId: string },
): Promise<{ role: Role | null; inherited: boolean; orgRole: OrgRole | null } | undefined> {
  const [row] = await ctx.db
    .select({
      orgRole: adminOrgMembers.role,
      rosterRole: projectMembers.role,
    })
    .from(projects)
    .leftJoin(adminOrgMembers, and(eq(adminOrgMembers.orgId, projects.orgId), eq(adminOrgMembers.adminId, adminId)))
    .leftJoin(projectMembers, and(eq(projectMembers.projectId, projects.id), eq(projectMembers.adminId, adminId)))
    .where(eq(projects.id, projectId))
    .limit(1);
  if (!row) return undefined;
  const orgRole = row.orgRole ?? null;
  if (orgRole === "owner" || orgRole === "admin") return { role: "admin", inherited: true, orgRole };
  return { role: row.rosterRole ?? null, inherited: false, orgRole };
}

/** How many administrators a project has: roster admins plus its org's owners and admins. */
export async function countAdministrators(ctx: ProjectContext, excludingAdminId?: string): Promise<number> {
  const exclude = excludingAdminId ? sql`and admin_id <> ${excludingAdminId}` : sql``;
  const [row] = await ctx.db.execute<{ n: number }>(sql`
    select count(distinct admin_id)::int as n from (
      select admin_id from ${projectMembers} where project_id = ${ctx.projectId} and role = 'admin'
      union
      select m.admin_id from ${adminOrgMembers} m join ${projects} p on p.org_id = m.org_id
        where p.id = ${ctx.projectId} and m.role in ('owner', 'admin')
    ) a where true ${exclude}`);
  return row?.n ?? 0;
}
