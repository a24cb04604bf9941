import { and, eq } from "drizzle-orm";
import { journeys, type Journey } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { JourneyView } from "./schemas";
import { toJourneyViews } from "./view";
import type { ProjectContext } from "@/lib/access/context";

export async function findJourney(ctx: ProjectContext, id: string): Promise<Journey> {
  const [row] = await ctx.db
    .select()
    .from(journeys)
    .where(and(eq(journeys.projectId, ctx.projectId), eq(journeys.id, id)));
  if (!row) throw new NotFound("No journey with this id in this project.");
  return row;
}

/** The journey locked for an edit, in the caller's transaction: entrances and step edits decide one at a time. */
export async function lockJourney(ctx: ProjectContext, id: string): Promise<Journey> {
  const [row] = await ctx.db
    .select()
    .from(journeys)
    .where(and(eq(journeys.projectId, ctx.projectId), eq(journeys.id, id)))
    .for("update");
  if (!row) throw new NotFound("No journey with this id in this project.");
  return row;
}

export async function getJourney(ctx: ProjectContext, id: string): Promise<JourneyView> {
  return (await toJourneyViews(ctx, [await findJourney(ctx, id)]))[0]!;
}
