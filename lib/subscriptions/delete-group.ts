import { and, eq } from "drizzle-orm";
import { subscriptionGroups } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";

/** Deletes a group with every user's state in it and its history (foreign-key cascade). */
export async function deleteGroup(ctx: ProjectContext, groupId: string): Promise<void> {
  const gone = await ctx.db
    .delete(subscriptionGroups)
    .where(and(eq(subscriptionGroups.projectId, ctx.projectId), eq(subscriptionGroups.id, groupId)))
    .returning({ id: subscriptionGroups.id });
  if (!gone.length) throw new NotFound("No subscription group with this id in this project.");
}
