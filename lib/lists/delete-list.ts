import { and, eq } from "drizzle-orm";
import { lists } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";

/** Deletes a list and its memberships (no `list.user.removed` events: the list itself is gone). */
export async function deleteList(ctx: ProjectContext, id: string): Promise<void> {
  const gone = await ctx.db
    .delete(lists)
    .where(and(eq(lists.projectId, ctx.projectId), eq(lists.id, id)))
    .returning({ id: lists.id });
  if (!gone.length) throw new NotFound("No list with this id in this project.");
}
