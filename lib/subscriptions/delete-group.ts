import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { subscriptionGroups } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";

/** Deletes a group with every user's state in it and its history (foreign-key cascade). */
export async function deleteGroup(db: DbOrTx, projectId: string, groupId: string): Promise<void> {
  const gone = await db
    .delete(subscriptionGroups)
    .where(and(eq(subscriptionGroups.projectId, projectId), eq(subscriptionGroups.id, groupId)))
    .returning({ id: subscriptionGroups.id });
  if (!gone.length) throw new NotFound("No subscription group with this id in this project.");
}
