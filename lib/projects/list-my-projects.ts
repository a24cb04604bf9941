import { and, eq, inArray } from "drizzle-orm";
import { adminOrgMembers, adminOrgs, projectMembers, projects } from "@/db/schema";
import type { MyProject } from "./schemas";
import type { AdminContext } from "@/lib/access/context";

/**
 * Every project the admin can open: all projects of orgs they own or administer (as admin, inherited),
 * plus the projects whose roster lists them. Also their orgs, for the "new project" form.
 */
export async function listMyProjects(ctx: AdminContext) {
  const { db } = ctx;
  const adminId = ctx.admin.id;
  const orgs = await db
    .select({ id: adminOrgs.id, name: adminOrgs.name, role: adminOrgMembers.role })
    .from(adminOrgMembers)
    .innerJoin(adminOrgs, eq(adminOrgs.id, adminOrgMembers.orgId))
    .where(eq(adminOrgMembers.adminId, adminId))
    .orderBy(adminOrgs.name);
  const managed = orgs.filter((o) => o.role !== "member").map((o) => o.id);
  const byId = new Map<string, MyProject>();
  if (managed.length) {
    const rows = await db
      .select({ p: projects, orgName: adminOrgs.name })
      .from(projects)
      .innerJoin(adminOrgs, eq(adminOrgs.id, projects.orgId))
      .where(inArray(projects.orgId, managed));
    for (const r of rows) byId.set(r.p.id, view(r.p, r.orgName, "admin", true));
  }
  const roster = await db
    .select({ p: projects, orgName: adminOrgs.name, role: projectMembers.role })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .innerJoin(adminOrgs, eq(adminOrgs.id, projects.orgId))
    .where(and(eq(projectMembers.adminId, adminId)));
  for (const r of roster) if (!byId.has(r.p.id)) byId.set(r.p.id, view(r.p, r.orgName, r.role, false));
  const data = [...byId.values()].sort((a, b) => a.org_name.localeCompare(b.org_name) || a.name.localeCompare(b.name));
  return { data, orgs };
}

function view(
  p: typeof projects.$inferSelect,
  orgName: string,
  role: MyProject["role"],
  inherited: boolean,
): MyProject {
  return {
    id: p.id,
    name: p.name,
    org_id: p.orgId,
    org_name: orgName,
    role,
    inherited,
    created_at: p.createdAt.toISOString(),
  };
}
