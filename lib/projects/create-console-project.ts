import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { adminOrgMembers, adminOrgs, type Admin } from "@/db/schema";
import { Forbidden } from "@/lib/http/errors";
import { createProject } from "./create-project";
import type { createConsoleProjectBody } from "./schemas";
import { withTransaction } from "@/lib/db/transaction";

/**
 * Creates a project from the console (through createProject, so creation hooks such as the built-in
 * anniversary schedule run). Only org owners and admins create projects in an org; an admin without such
 * an org gets a new one they own.
 */
export async function createConsoleProject(db: Db, admin: Admin, input: z.output<typeof createConsoleProjectBody>) {
  return withTransaction(db, async (tx) => {
    const manageable = await tx
      .select({ id: adminOrgs.id, name: adminOrgs.name })
      .from(adminOrgMembers)
      .innerJoin(adminOrgs, eq(adminOrgs.id, adminOrgMembers.orgId))
      .where(and(eq(adminOrgMembers.adminId, admin.id), inArray(adminOrgMembers.role, ["owner", "admin"])))
      .orderBy(adminOrgs.createdAt);
    let org = input.org_id ? manageable.find((o) => o.id === input.org_id) : manageable[0];
    if (input.org_id && !org) throw new Forbidden("Only owners and admins of an organization can create projects in it.");
    if (!org) {
      const name = input.org_name ?? `${admin.email.split("@")[0]}'s organization`;
      [org] = await tx.insert(adminOrgs).values({ name }).returning({ id: adminOrgs.id, name: adminOrgs.name });
      await tx.insert(adminOrgMembers).values({ orgId: org!.id, adminId: admin.id, role: "owner" });
    }
    const project = await createProject(tx, org!.id, input.name);
    return { id: project.id, name: project.name, org_id: org!.id, org_name: org!.name, role: "admin" as const, inherited: true, created_at: project.createdAt.toISOString() };
  });
}
