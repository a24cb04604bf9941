import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { adminOrgMembers, adminOrgs, admins, projects, type Project } from "@/db/schema";
import { onProjectCreated } from "./hooks";
import { withTransaction } from "@/lib/db/transaction";
import type { AppContext } from "@/lib/access/context";

/** Finds an admin by e-mail (case-insensitive) or creates one. */
export async function ensureAdmin(ctx: AppContext, email: string) {
  const [existing] = await ctx.db.select().from(admins).where(sql`lower(${admins.email}) = lower(${email})`);
  if (existing) return existing;
  const [created] = await ctx.db.insert(admins).values({ email }).returning();
  return created!;
}

/**
 * Operator bootstrap (CLI): the org named `orgName` and a project in it, with `ownerEmail` as the org's
 * owner. Org owners are admins of every project of the org, so no roster row is needed. An existing org of
 * that name where the owner already belongs is reused; if they are only a member or admin there they are
 * made owner (the operator named them owner, and a plain member could not even open the new project).
 */
export async function createProjectWithOwner(
  ctx: AppContext<Db>,
  input: { orgName: string; projectName: string; ownerEmail: string },
) {
  return withTransaction(ctx.db, async (tx) => {
    const owner = await ensureAdmin({ db: tx }, input.ownerEmail);
    const [existing] = await tx
      .select({ id: adminOrgs.id, role: adminOrgMembers.role })
      .from(adminOrgs)
      .innerJoin(adminOrgMembers, eq(adminOrgMembers.orgId, adminOrgs.id))
      .where(and(eq(adminOrgs.name, input.orgName), eq(adminOrgMembers.adminId, owner.id)))
      .orderBy(sql`${adminOrgMembers.role} = 'owner' desc`, adminOrgs.id)
      .limit(1);
    let orgId = existing?.id;
    const promotedFrom = existing && existing.role !== "owner" ? existing.role : null;
    if (!orgId) {
      const [org] = await tx.insert(adminOrgs).values({ name: input.orgName }).returning({ id: adminOrgs.id });
      orgId = org!.id;
      await tx.insert(adminOrgMembers).values({ orgId, adminId: owner.id, role: "owner" });
    } else if (promotedFrom) {
      await tx
        .update(adminOrgMembers)
        .set({ role: "owner" })
        .where(and(eq(adminOrgMembers.orgId, orgId), eq(adminOrgMembers.adminId, owner.id)));
    }
    const project = await createProject({ db: tx }, { orgId, name: input.projectName });
    return { orgId, project, owner, promotedFrom };
  });
}

export async function createProject(
  ctx: AppContext,
  { orgId, name }: { orgId: string; name: string },
): Promise<Project> {
  const [project] = await ctx.db.insert(projects).values({ orgId, name }).returning();
  await onProjectCreated(ctx, project!);
  return project!;
}
