import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { listMembers } from "@/db/schema";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { findList } from "./get-list";
import type { ProjectContext } from "@/lib/access/context";

export const listMembersQuery = paginationQuery.meta({ id: "ListMembersQuery" });

/** Members, most recently added first. */
export async function listListMembers(
  ctx: ProjectContext,
  { listId, query: q }: { listId: string; query: z.output<typeof listMembersQuery> },
) {
  await findList(ctx, { id: listId });
  const after = decodeCursor(q.cursor, z.tuple([z.iso.datetime(), z.uuid()]));
  const rows = await ctx.db
    .select()
    .from(listMembers)
    .where(
      and(
        eq(listMembers.projectId, ctx.projectId),
        eq(listMembers.listId, listId),
        after
          ? sql`(${listMembers.addedAt}, ${listMembers.userId}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(listMembers.addedAt), desc(listMembers.userId))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.addedAt.toISOString(), r.userId]);
  return { data: data.map((r) => ({ user_id: r.userId, added_at: r.addedAt.toISOString() })), next_cursor };
}
