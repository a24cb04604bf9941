import { asc, eq, gt, sql } from "drizzle-orm";
import { journeyEntries, journeyEntrySteps } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { toEntryView } from "./entry-view";
import { findJourney } from "./get-journey";
import { decodeCursor, page } from "@/lib/http/pagination";
import { queryRows, uuidArray } from "@/lib/db/sql";
import { inProject } from "@/lib/db/in-project";
import type { JourneyEntryPathView } from "./schemas";
import { z } from "zod";

type PathRows = JourneyEntryPathView["path"];

const seqCursor = z.tuple([z.number().int()]);

/**
 * One entry with a page of its path (each step it passed, when, and the outcome), oldest first: a path
 * is as long as the entry's history, so it is read `limit` rows at a time after `cursor`.
 */
export async function getJourneyEntry(
  ctx: ProjectContext,
  { journeyId, entryId, limit = 100, cursor }: { journeyId: string; entryId: string; limit?: number; cursor?: string },
): Promise<JourneyEntryPathView> {
  await findJourney(ctx, journeyId);
  const [entry] = await ctx.db
    .select()
    .from(journeyEntries)
    .where(inProject(ctx, journeyEntries, eq(journeyEntries.journeyId, journeyId), eq(journeyEntries.id, entryId)));
  if (!entry) throw new NotFound("No entry with this id in this journey.");
  const after = decodeCursor(cursor, seqCursor)?.[0] ?? 0;
  const rows = await ctx.db
    .select()
    .from(journeyEntrySteps)
    .where(inProject(ctx, journeyEntrySteps, eq(journeyEntrySteps.entryId, entryId), gt(journeyEntrySteps.seq, after)))
    .orderBy(asc(journeyEntrySteps.seq))
    .limit(limit + 1);
  const { data, next_cursor } = page(rows, limit, (r) => [r.seq]);
  return { ...toEntryView(entry), path: data.map(pathRow), path_next_cursor: next_cursor };
}

/** Path rows an explanation shows per entry: its latest. */
const EXPLAINED_STEPS = 100;

/** The last EXPLAINED_STEPS rows of some entries' paths, each in order (the explain and the timeline read them). */
export async function entryPaths(ctx: ProjectContext, entryIds: string[]) {
  const out = new Map<string, PathRows>(entryIds.map((id) => [id, []]));
  if (!entryIds.length) return out;
  const rows = await queryRows<{
    entry_id: string;
    step_key: string;
    kind: string;
    entered_at: Date;
    left_at: Date;
    outcome: string;
  }>(
    ctx.db,
    sql`select s.* from unnest(${uuidArray(entryIds)}) as x(id)
      cross join lateral (
        select entry_id, seq, step_key, kind, entered_at, left_at, outcome from journey_entry_steps
        where project_id = ${ctx.projectId}::uuid and entry_id = x.id order by seq desc limit ${EXPLAINED_STEPS}
      ) s
      order by s.entry_id, s.seq`,
  );
  for (const r of rows)
    out
      .get(r.entry_id)
      ?.push(
        pathRow({ stepKey: r.step_key, kind: r.kind, enteredAt: r.entered_at, leftAt: r.left_at, outcome: r.outcome }),
      );
  return out;
}

function pathRow(r: { stepKey: string; kind: string; enteredAt: Date; leftAt: Date; outcome: string }) {
  return {
    step_key: r.stepKey,
    kind: r.kind,
    entered_at: new Date(r.enteredAt).toISOString(),
    left_at: new Date(r.leftAt).toISOString(),
    outcome: r.outcome,
  };
}
