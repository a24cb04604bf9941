import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { adminOrgMembers, adminOrgs } from "@/db/schema";
import { Forbidden } from "@/lib/http/errors";
import { createProject } from "./create-project";
import type { createConsoleProjectBody } from "./schemas";
import { withTransaction } from "@/lib/db/transaction";
import { registrationMode } from "@/lib/access/registration";
import type { AdminContext } from "@/lib/access/context";

/**
 * Creates a project from the console (through createProject, so creation hooks such as the built-in
 * anniversary schedule run). Only org owners and admins create projects in an org. An admin without such
 * an org gets a new one they own, but only under open registration: under invite_only, organizations are
 * made by an operator (the CLI) or exist already, so signing in with an invitation to one project does
 * not let anyone found their own organization and invite any address from it.
 */
export async function createConsoleProject(ctx: AdminContext<Db>, input: z.output<typeof createConsoleProjectBody>) {
  const { admin } = ctx;
  return withTransaction(ctx.db, async (tx) => {
    const manageable = await tx
      .select({ id: adminOrgs.id, name: adminOrgs.name })
      .from(adminOrgMembers)
      .innerJoin(adminOrgs, eq(adminOrgs.id, adminOrgMembers.orgId))
      .where(and(eq(adminOrgMembers.adminId, admin.id), inArray(adminOrgMembers.role, ["owner", "admin"])))
      .orderBy(adminOrgs.createdAt);
    let org = input.org_id ? manageable.find((o) => o.id === input.org_id) : manageable[0];
    if (input.org_id && !org)
      throw new Forbidden("Only owners and admins of an organization can create projects in it.");
    if (!org && registrationMode() === "invite_only") {
      throw new Forbidden(
        "This Relay is invite-only: only an owner or admin of an existing organization creates projects, and new organizations are made by an operator (npm run cli -- create-project).",
      );
    }
    if (!org) {
      const name = input.org_name ?? `${admin.email.split("@")[0]}'s organization`;
      [org] = await tx.insert(adminOrgs).values({ name }).returning({ id: adminOrgs.id, name: adminOrgs.name });
      await tx.insert(adminOrgMembers).values({ orgId: org!.id, adminId: admin.id, role: "owner" });
    }
    const project = await createProject({ db: tx }, { orgId: org!.id, name: input.name });
    return {
      id: project.id,
      name: project.name,
      org_id: org!.id,
      org_name: org!.name,
      role: "admin" as const,
      inherited: true,
      created_at: project.createdAt.toISOString(),
    };
  });
}
