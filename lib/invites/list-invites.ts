import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { admins, projectInvites } from "@/db/schema";
import { decodeCursor, page } from "@/lib/http/pagination";
import type { listInvitesQuery } from "./schemas";
import { toInviteView } from "./view";
import type { ProjectContext } from "@/lib/access/context";

/** A project's pending invitations (neither accepted, revoked nor expired), newest first. */
export async function listInvites(ctx: ProjectContext, q: z.output<typeof listInvitesQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const where = [
    eq(projectInvites.projectId, ctx.projectId),
    isNull(projectInvites.acceptedAt),
    isNull(projectInvites.revokedAt),
    gt(projectInvites.expiresAt, sql`now()`),
  ];
  if (after) where.push(lt(projectInvites.id, after[0]));
  const rows = await ctx.db
    .select({ invite: projectInvites, inviter: admins.email })
    .from(projectInvites)
    .leftJoin(admins, eq(admins.id, projectInvites.invitedBy))
    .where(and(...where))
    .orderBy(desc(projectInvites.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.invite.id]);
  return { data: data.map((r) => toInviteView(r.invite, r.inviter)), next_cursor };
}
