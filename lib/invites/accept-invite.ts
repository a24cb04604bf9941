import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { adminOrgMembers, projectInvites, projectMembers, projects } from "@/db/schema";
import { projectRoleOf } from "@/lib/access/project-role";
import { Forbidden, NotFound, RuleBroken } from "@/lib/http/errors";
import { inviteState } from "./view";
import { withTransaction } from "@/lib/db/transaction";
import type { AdminContext } from "@/lib/access/context";

/**
 * Accepts an invitation for the signed-in admin. The invitation carries no token: the session's verified
 * e-mail must equal the invited address (case-insensitive), so a forwarded mail grants nothing. Grants the
 * role without ever lowering a higher one, and adds an outsider to the project's org as a plain member.
 */
export async function acceptInvite(ctx: AdminContext<Db>, inviteId: string) {
  const { admin } = ctx;
  return withTransaction(ctx.db, async (tx) => {
    const [invite] = await tx.select().from(projectInvites).where(eq(projectInvites.id, inviteId)).for("update");
    if (!invite) throw new NotFound("No such invitation.");
    if (!admin.emailVerified || invite.email.toLowerCase() !== admin.email.toLowerCase()) {
      throw new Forbidden(`This invitation was sent to another address; sign in as that address to accept it.`);
    }
    const state = inviteState(invite);
    if (state !== "pending") throw new RuleBroken(`This invitation is ${state} and can no longer be accepted.`);

    const [project] = await tx.select().from(projects).where(eq(projects.id, invite.projectId));
    await tx
      .insert(adminOrgMembers)
      .values({ orgId: project!.orgId, adminId: admin.id, role: "member" })
      .onConflictDoNothing();
    const current = await projectRoleOf({ db: tx }, { adminId: admin.id, projectId: invite.projectId });
    if (!current?.inherited) {
      // Enum order is the role order, so greatest() keeps the higher of the old and invited roles.
      await tx
        .insert(projectMembers)
        .values({ projectId: invite.projectId, adminId: admin.id, role: invite.role })
        .onConflictDoUpdate({
          target: [projectMembers.projectId, projectMembers.adminId],
          set: { role: sql`greatest(${projectMembers.role}, excluded.role)`, updatedAt: sql`now()` },
        });
    }
    await tx
      .update(projectInvites)
      .set({ acceptedAt: sql`now()`, acceptedBy: admin.id, updatedAt: sql`now()` })
      .where(eq(projectInvites.id, invite.id));
    const after = await projectRoleOf({ db: tx }, { adminId: admin.id, projectId: invite.projectId });
    return { project_id: invite.projectId, project_name: project!.name, role: after!.role! };
  });
}
