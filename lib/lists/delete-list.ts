import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { lists } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";

/** Deletes a list and its memberships (no `list.user.removed` events: the list itself is gone). */
export async function deleteList(db: DbOrTx, projectId: string, id: string): Promise<void> {
  const gone = await db.delete(lists).where(and(eq(lists.projectId, projectId), eq(lists.id, id))).returning({ id: lists.id });
  if (!gone.length) throw new NotFound("No list with this id in this project.");
}
