import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { lists } from "@/db/schema";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { hasTag, tagFilter } from "@/lib/http/tags";
import { toListViews } from "./view";
import type { ProjectContext } from "@/lib/access/context";

export const listListsQuery = paginationQuery.extend({ tag: tagFilter }).meta({ id: "ListListsQuery" });

export async function listLists(ctx: ProjectContext, q: z.output<typeof listListsQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await ctx.db
    .select()
    .from(lists)
    .where(
      and(eq(lists.projectId, ctx.projectId), hasTag(lists.tags, q.tag), after ? lt(lists.id, after[0]) : undefined),
    )
    .orderBy(desc(lists.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.id]);
  return { data: await toListViews(ctx, data), next_cursor };
}
