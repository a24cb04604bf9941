import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { adminOrgMembers, adminOrgs, admins, projects, type Project } from "@/db/schema";
import { onProjectCreated } from "./hooks";
import { withTransaction } from "@/lib/db/transaction";

/** Finds an admin by e-mail (case-insensitive) or creates one. */
export async function ensureAdmin(tx: DbOrTx, email: string) {
  const [existing] = await tx.select().from(admins).where(sql`lower(${admins.email}) = lower(${email})`);
  if (existing) return existing;
  const [created] = await tx.insert(admins).values({ email }).returning();
  return created!;
}

/**
 * Operator bootstrap (CLI): the org named `orgName` (created with `ownerEmail` as owner when new), and a
 * project in it. Org owners are admins of every project of the org, so no roster row is needed.
 */
export async function createProjectWithOwner(db: Db, input: { orgName: string; projectName: string; ownerEmail: string }) {
  return withTransaction(db, async (tx) => {
    const owner = await ensureAdmin(tx, input.ownerEmail);
    let [org] = await tx
      .select({ id: adminOrgs.id })
      .from(adminOrgs)
      .innerJoin(adminOrgMembers, eq(adminOrgMembers.orgId, adminOrgs.id))
      .where(and(eq(adminOrgs.name, input.orgName), eq(adminOrgMembers.adminId, owner.id)))
      .limit(1);
    if (!org) {
      [org] = await tx.insert(adminOrgs).values({ name: input.orgName }).returning({ id: adminOrgs.id });
      await tx.insert(adminOrgMembers).values({ orgId: org!.id, adminId: owner.id, role: "owner" });
    }
    const project = await createProject(tx, org!.id, input.projectName);
    return { orgId: org!.id, project, owner };
  });
}

export async function createProject(tx: DbOrTx, orgId: string, name: string): Promise<Project> {
  const [project] = await tx.insert(projects).values({ orgId, name }).returning();
  await onProjectCreated(tx, project!);
  return project!;
}
