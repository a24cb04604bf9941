import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { journeys } from "@/db/schema";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { toJourneyViews } from "./view";

export const listJourneysQuery = paginationQuery.meta({ id: "ListJourneysQuery" });

export async function listJourneys(db: DbOrTx, projectId: string, q: z.output<typeof listJourneysQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await db
    .select()
    .from(journeys)
    .where(and(eq(journeys.projectId, projectId), after ? lt(journeys.id, after[0]) : undefined))
    .orderBy(desc(journeys.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.id]);
  return { data: await toJourneyViews(db, projectId, data), next_cursor };
}
