import { and, eq } from "drizzle-orm";
import { journeys } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";

/** Deletes a journey with its entrances and entries. */
export async function deleteJourney(ctx: ProjectContext, id: string): Promise<void> {
  const gone = await ctx.db
    .delete(journeys)
    .where(and(eq(journeys.projectId, ctx.projectId), eq(journeys.id, id)))
    .returning({ id: journeys.id });
  if (!gone.length) throw new NotFound("No journey with this id in this project.");
}
