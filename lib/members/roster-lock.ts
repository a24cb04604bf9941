import { and, eq } from "drizzle-orm";
import { adminOrgMembers, projectMembers, projects } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Serializes roster changes per project (row lock on the project), so two admins demoting each other at
 * once cannot both pass the last-administrator check. Returns the target's roster row and org role.
 */
export async function lockRosterTarget(ctx: ProjectContext, adminId: string) {
  await ctx.db.select({ id: projects.id }).from(projects).where(eq(projects.id, ctx.projectId)).for("update");
  const [row] = await ctx.db
    .select({ member: projectMembers, orgRole: adminOrgMembers.role })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .leftJoin(
      adminOrgMembers,
      and(eq(adminOrgMembers.orgId, projects.orgId), eq(adminOrgMembers.adminId, projectMembers.adminId)),
    )
    .where(and(eq(projectMembers.projectId, ctx.projectId), eq(projectMembers.adminId, adminId)))
    .limit(1);
  if (!row) throw new NotFound("This admin is not on the project's roster.");
  return { ...row.member, orgRole: row.orgRole ?? null };
}
