import { and, asc, eq, inArray } from "drizzle-orm";
import { journeyEntries, journeyEntrySteps } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { toEntryView } from "./entry-view";
import { findJourney } from "./get-journey";
import type { JourneyEntryPathView } from "./schemas";

/** One entry with its path: each step it passed, when, and the outcome. */
export async function getJourneyEntry(
  ctx: ProjectContext,
  { journeyId, entryId }: { journeyId: string; entryId: string },
): Promise<JourneyEntryPathView> {
  await findJourney(ctx, journeyId);
  const [entry] = await ctx.db
    .select()
    .from(journeyEntries)
    .where(
      and(
        eq(journeyEntries.projectId, ctx.projectId),
        eq(journeyEntries.journeyId, journeyId),
        eq(journeyEntries.id, entryId),
      ),
    );
  if (!entry) throw new NotFound("No entry with this id in this journey.");
  const path = await entryPaths(ctx, [entryId]);
  return { ...toEntryView(entry), path: path.get(entryId) ?? [] };
}

/** The paths of some entries, each in order (the explain and the timeline read them too). */
export async function entryPaths(ctx: ProjectContext, entryIds: string[]) {
  const out = new Map<string, JourneyEntryPathView["path"]>(entryIds.map((id) => [id, []]));
  if (!entryIds.length) return out;
  const rows = await ctx.db
    .select()
    .from(journeyEntrySteps)
    .where(and(eq(journeyEntrySteps.projectId, ctx.projectId), inArray(journeyEntrySteps.entryId, entryIds)))
    .orderBy(asc(journeyEntrySteps.entryId), asc(journeyEntrySteps.seq));
  for (const r of rows)
    out.get(r.entryId)?.push({
      step_key: r.stepKey,
      kind: r.kind,
      entered_at: r.enteredAt.toISOString(),
      left_at: r.leftAt.toISOString(),
      outcome: r.outcome,
    });
  return out;
}
