import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db/client";
import { adminOrgs, admins, projectInvites, projects, type Admin } from "@/db/schema";
import { toInviteView } from "./view";

const inviter = alias(admins, "inviter");

/** The signed-in admin's pending invitations (addressed to their e-mail, case-insensitive), newest first. */
export async function listMyInvites(db: DbOrTx, admin: Admin) {
  const rows = await db
    .select({ invite: projectInvites, projectName: projects.name, orgName: adminOrgs.name, inviter: inviter.email })
    .from(projectInvites)
    .innerJoin(projects, eq(projects.id, projectInvites.projectId))
    .innerJoin(adminOrgs, eq(adminOrgs.id, projects.orgId))
    .leftJoin(inviter, eq(inviter.id, projectInvites.invitedBy))
    .where(
      and(
        sql`lower(${projectInvites.email}) = lower(${admin.email})`,
        isNull(projectInvites.acceptedAt),
        isNull(projectInvites.revokedAt),
        gt(projectInvites.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(projectInvites.id));
  return { data: rows.map((r) => ({ ...toInviteView(r.invite, r.inviter), project_name: r.projectName, org_name: r.orgName })), next_cursor: null };
}
