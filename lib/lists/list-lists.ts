import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { lists } from "@/db/schema";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { toListViews } from "./view";

export const listListsQuery = paginationQuery.meta({ id: "ListListsQuery" });

export async function listLists(db: DbOrTx, projectId: string, q: z.output<typeof listListsQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await db
    .select()
    .from(lists)
    .where(and(eq(lists.projectId, projectId), after ? lt(lists.id, after[0]) : undefined))
    .orderBy(desc(lists.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.id]);
  return { data: await toListViews(db, projectId, data), next_cursor };
}
