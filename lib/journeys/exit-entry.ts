import { and, eq, isNull, sql } from "drizzle-orm";
import { journeyEntries } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";

/** Ends an active entry (what a journey does in between is a later issue); a user without concurrent runs may then enter again. */
export async function exitJourneyEntry(ctx: ProjectContext, journeyId: string, entryId: string): Promise<void> {
  const rows = await ctx.db
    .update(journeyEntries)
    .set({ exitedAt: sql`now()` })
    .where(
      and(
        eq(journeyEntries.projectId, ctx.projectId),
        eq(journeyEntries.journeyId, journeyId),
        eq(journeyEntries.id, entryId),
        isNull(journeyEntries.exitedAt),
      ),
    )
    .returning({ id: journeyEntries.id });
  if (!rows.length) throw new NotFound("No active entry with this id in this journey.");
}
