import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { journeys, type Journey } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { JourneyView } from "./schemas";
import { toJourneyViews } from "./view";

export async function findJourney(db: DbOrTx, projectId: string, id: string): Promise<Journey> {
  const [row] = await db.select().from(journeys).where(and(eq(journeys.projectId, projectId), eq(journeys.id, id)));
  if (!row) throw new NotFound("No journey with this id in this project.");
  return row;
}

export async function getJourney(db: DbOrTx, projectId: string, id: string): Promise<JourneyView> {
  return (await toJourneyViews(db, projectId, [await findJourney(db, projectId, id)]))[0]!;
}
