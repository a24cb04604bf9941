import { and, eq } from "drizzle-orm";
import { projectMembers } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { countAdministrators } from "@/lib/access/project-role";
import { assertNotOutranked } from "@/lib/access/rank-rules";
import { RuleBroken } from "@/lib/http/errors";
import { revokeKeysAbove } from "@/lib/keys/revoke-departed";
import { forgetKeys } from "@/lib/access/key-cache";
import { lockRosterTarget } from "./roster-lock";
import { withTransaction } from "@/lib/db/transaction";

/**
 * Removes a roster member; never one who outranks the caller, never the last administrator. The keys the
 * member created in the project are revoked in the same transaction. Returns the revoked key ids.
 */
export async function removeMember(ctx: ProjectContext, adminId: string): Promise<string[]> {
  // Keys revoked in the transaction: this process drops the ones it holds once it has committed.
  const result = await withTransaction(ctx.db, async (tx) => {
    const target = await lockRosterTarget({ ...ctx, db: tx }, adminId);
    assertNotOutranked(ctx.actor, target.role, target.orgRole);
    if (target.role === "admin" && (await countAdministrators({ ...ctx, db: tx }, adminId)) === 0) {
      throw new RuleBroken("This is the project's last administrator and cannot be removed.");
    }
    await tx
      .delete(projectMembers)
      .where(and(eq(projectMembers.projectId, ctx.projectId), eq(projectMembers.adminId, adminId)));
    return revokeKeysAbove({ ...ctx, db: tx }, { adminId, keepUpTo: null });
  });
  forgetKeys();
  return result;
}
