import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { journeys } from "@/db/schema";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { hasTag } from "@/lib/db/has-tag";
import { tagFilter } from "@/lib/http/tags";
import { toJourneyViews } from "./view";
import type { ProjectContext } from "@/lib/access/context";

export const listJourneysQuery = paginationQuery.extend({ tag: tagFilter }).meta({ id: "ListJourneysQuery" });

export async function listJourneys(ctx: ProjectContext, q: z.output<typeof listJourneysQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await ctx.db
    .select()
    .from(journeys)
    .where(
      and(
        eq(journeys.projectId, ctx.projectId),
        hasTag(journeys.tags, q.tag),
        after ? lt(journeys.id, after[0]) : undefined,
      ),
    )
    .orderBy(desc(journeys.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.id]);
  return { data: await toJourneyViews(ctx, data), next_cursor };
}
