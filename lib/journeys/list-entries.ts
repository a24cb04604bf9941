import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { journeyEntries } from "@/db/schema";
import { inProject } from "@/lib/db/in-project";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { findJourney } from "./get-journey";
import { toEntryView } from "./entry-view";
import type { ProjectContext } from "@/lib/access/context";

export const listEntriesQuery = paginationQuery
  .extend({
    user_id: z.uuid().optional(),
    entrance_id: z.uuid().optional().meta({ description: "Only entries made through this entrance." }),
    state: z.enum(["active", "exited"]).optional().meta({ description: "`active`: not exited yet; `exited`: exited." }),
    step_key: z.string().max(40).optional().meta({ description: "Only entries at this step now (who waits there)." }),
  })
  .meta({ id: "ListJourneyEntriesQuery" });

/** Entries of a journey, newest first, optionally for one user, one entrance, active or exited ones. */
export async function listJourneyEntries(
  ctx: ProjectContext,
  { journeyId, query: q }: { journeyId: string; query: z.output<typeof listEntriesQuery> },
) {
  await findJourney(ctx, journeyId);
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await ctx.db
    .select()
    .from(journeyEntries)
    .where(
      inProject(
        ctx,
        journeyEntries,
        eq(journeyEntries.journeyId, journeyId),
        q.user_id ? eq(journeyEntries.userId, q.user_id) : undefined,
        q.entrance_id ? eq(journeyEntries.entranceId, q.entrance_id) : undefined,
        q.state
          ? q.state === "active"
            ? sql`${journeyEntries.exitedAt} is null`
            : sql`${journeyEntries.exitedAt} is not null`
          : undefined,
        q.step_key ? eq(journeyEntries.stepKey, q.step_key) : undefined,
        after ? sql`${journeyEntries.id} < ${after[0]}::uuid` : undefined,
      ),
    )
    .orderBy(desc(journeyEntries.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.id]);
  return {
    data: data.map(toEntryView),
    next_cursor,
  };
}
