import { and, eq, sql } from "drizzle-orm";
import { projectMembers } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { countAdministrators } from "@/lib/access/project-role";
import { assertMayGrant, assertNotOutranked } from "@/lib/access/rank-rules";
import type { Role } from "@/lib/access/roles";
import { RuleBroken } from "@/lib/http/errors";
import { revokeKeysAbove } from "@/lib/keys/revoke-departed";
import { forgetKeys } from "@/lib/access/key-cache";
import { lockRosterTarget } from "./roster-lock";
import { withTransaction } from "@/lib/db/transaction";

/**
 * Re-roles a roster member. Refused (422) when the member outranks the caller, when the new role is above
 * the caller's, or when it would leave the project without an administrator (org owners/admins count).
 * Keys the member created with a role above the new one are revoked in the same transaction.
 */
export async function changeMemberRole(ctx: ProjectContext, { adminId, role }: { adminId: string; role: Role }) {
  // Keys revoked in the transaction: this process drops the ones it holds once it has committed.
  const result = await withTransaction(ctx.db, async (tx) => {
    const target = await lockRosterTarget({ ...ctx, db: tx }, adminId);
    assertNotOutranked(ctx.actor, target.role, target.orgRole);
    assertMayGrant(ctx.actor, role);
    if (target.role === "admin" && role !== "admin" && (await countAdministrators({ ...ctx, db: tx }, adminId)) === 0) {
      throw new RuleBroken("This is the project's last administrator: make someone else admin first.");
    }
    const [row] = await tx
      .update(projectMembers)
      .set({ role, updatedAt: sql`now()` })
      .where(and(eq(projectMembers.projectId, ctx.projectId), eq(projectMembers.adminId, adminId)))
      .returning();
    const revokedKeyIds = await revokeKeysAbove({ ...ctx, db: tx }, { adminId, keepUpTo: role });
    return { ...row!, revokedKeyIds };
  });
  forgetKeys();
  return result;
}
