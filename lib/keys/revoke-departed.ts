import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import type { ProjectContext } from "@/lib/access/context";
import { apiKeys } from "@/db/schema";
import { ROLES, roleRank, type Role } from "@/lib/access/roles";

/**
 * Revokes the live keys a member created in a project that rank above `keepUpTo` (every key when null:
 * the member left). Called inside the removal or demotion transaction, so a member can never keep, through
 * a key, a role the roster no longer gives them. Returns the ids revoked, for the answer and the console.
 */
export async function revokeKeysAbove(
  ctx: ProjectContext<DbOrTx>,
  { adminId, keepUpTo }: { adminId: string; keepUpTo: Role | null },
): Promise<string[]> {
  const above = keepUpTo === null ? [...ROLES] : ROLES.filter((r) => roleRank(r) > roleRank(keepUpTo));
  if (!above.length) return [];
  const rows = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(apiKeys.projectId, ctx.projectId),
        eq(apiKeys.createdBy, adminId),
        isNull(apiKeys.revokedAt),
        inArray(apiKeys.role, above),
      ),
    )
    .returning({ id: apiKeys.id });
  return rows.map((r) => r.id);
}
