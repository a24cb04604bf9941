import { and, eq } from "drizzle-orm";
import { destinations } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";

/** Deletes a destination with its delivery log; messages not yet delivered are dropped with it. */
export async function deleteDestination(ctx: ProjectContext, id: string): Promise<void> {
  const rows = await ctx.db
    .delete(destinations)
    .where(and(eq(destinations.projectId, ctx.projectId), eq(destinations.id, id)))
    .returning({ id: destinations.id });
  if (!rows.length) throw new NotFound("No destination with this id in this project.");
}
