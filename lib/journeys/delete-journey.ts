import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { journeys } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";

/** Deletes a journey with its entrances and entries. */
export async function deleteJourney(db: DbOrTx, projectId: string, id: string): Promise<void> {
  const gone = await db.delete(journeys).where(and(eq(journeys.projectId, projectId), eq(journeys.id, id))).returning({ id: journeys.id });
  if (!gone.length) throw new NotFound("No journey with this id in this project.");
}
