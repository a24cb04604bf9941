import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { projectMembers, projects } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";

/**
 * Serializes roster changes per project (row lock on the project), so two admins demoting each other at
 * once cannot both pass the last-administrator check. Returns the target's roster row.
 */
export async function lockRosterTarget(tx: DbOrTx, projectId: string, adminId: string) {
  await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for("update");
  const [target] = await tx
    .select()
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.adminId, adminId)))
    .limit(1);
  if (!target) throw new NotFound("This admin is not on the project's roster.");
  return target;
}

