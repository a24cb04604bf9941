import { and, desc, eq, inArray, lt, or } from "drizzle-orm";
import { z } from "zod";
import { adminOrgMembers, admins, projectMembers, projects } from "@/db/schema";
import { decodeCursor, page } from "@/lib/http/pagination";
import type { listMembersQuery, MemberView } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

/**
 * The roster, newest first. Org owners and admins are administrators by inheritance and are not on it;
 * they are returned apart as `inherited` so the console can say who else administers the project.
 */
export async function listMembers(ctx: ProjectContext, q: z.output<typeof listMembersQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.iso.datetime(), z.uuid()]));
  const where = [eq(projectMembers.projectId, ctx.projectId)];
  if (after) {
    const at = new Date(after[0]);
    where.push(
      or(
        lt(projectMembers.createdAt, at),
        and(eq(projectMembers.createdAt, at), lt(projectMembers.adminId, after[1])),
      )!,
    );
  }
  const rows = await ctx.db
    .select({ admin: admins, role: projectMembers.role, joinedAt: projectMembers.createdAt })
    .from(projectMembers)
    .innerJoin(admins, eq(admins.id, projectMembers.adminId))
    .where(and(...where))
    .orderBy(desc(projectMembers.createdAt), desc(projectMembers.adminId))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.joinedAt.toISOString(), r.admin.id]);
  const inherited = await ctx.db
    .select({ admin: admins, orgRole: adminOrgMembers.role })
    .from(projects)
    .innerJoin(adminOrgMembers, eq(adminOrgMembers.orgId, projects.orgId))
    .innerJoin(admins, eq(admins.id, adminOrgMembers.adminId))
    .where(and(eq(projects.id, ctx.projectId), inArray(adminOrgMembers.role, ["owner", "admin"])))
    .orderBy(admins.email);
  return {
    data: data.map(
      (r): MemberView => ({
        admin_id: r.admin.id,
        email: r.admin.email,
        name: r.admin.name,
        role: r.role,
        joined_at: r.joinedAt.toISOString(),
      }),
    ),
    next_cursor,
    inherited: inherited.map((r) => ({
      admin_id: r.admin.id,
      email: r.admin.email,
      name: r.admin.name,
      org_role: r.orgRole as "owner" | "admin",
    })),
  };
}
