import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { alias } from "drizzle-orm/pg-core";
import { adminOrgs, admins, projectInvites, projects } from "@/db/schema";
import { decodeCursor, page } from "@/lib/http/pagination";
import type { listInvitesQuery } from "./schemas";
import { toInviteFields } from "./view";
import type { AdminContext } from "@/lib/access/context";

const inviter = alias(admins, "inviter");

/** The signed-in admin's pending invitations (addressed to their e-mail, case-insensitive), newest first. */
export async function listMyInvites(ctx: AdminContext, q: z.output<typeof listInvitesQuery>) {
  const { admin } = ctx;
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await ctx.db
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
        after ? lt(projectInvites.id, after[0]) : undefined,
      ),
    )
    .orderBy(desc(projectInvites.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.invite.id]);
  return {
    data: data.map((r) => ({
      ...toInviteFields(r.invite, r.inviter),
      project_name: r.projectName,
      org_name: r.orgName,
    })),
    next_cursor,
  };
}
