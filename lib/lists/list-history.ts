import { sql } from "drizzle-orm";
import { z } from "zod";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { findList } from "./get-list";
import type { ProjectContext } from "@/lib/access/context";

export const listHistoryQuery = paginationQuery.meta({ id: "ListHistoryQuery" });

/**
 * A list's entries and exits, newest first: its `list.user.added` / `list.user.removed` events, read from
 * the events' (project, name, time) index.
 */
export async function listHistory(
  ctx: ProjectContext,
  { listId, query: q }: { listId: string; query: z.output<typeof listHistoryQuery> },
) {
  await findList(ctx, { id: listId });
  const after = decodeCursor(q.cursor, z.tuple([z.iso.datetime(), z.uuid()]));
  const rows = await ctx.db.execute<{
    event_id: string;
    change: "added" | "removed";
    user_id: string | null;
    at: string;
  }>(sql`
    select e.id as event_id, case when e.name = 'list.user.added' then 'added' else 'removed' end as change, e.user_id,
      to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
    from events e
    where e.project_id = ${ctx.projectId}::uuid and e.name in ('list.user.added', 'list.user.removed') and e.data->>'list_id' = ${listId}
      ${after ? sql`and (e.occurred_at, e.id) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql``}
    order by e.occurred_at desc, e.id desc
    limit ${q.limit + 1}`);
  return page([...rows], q.limit, (r) => [r.at, r.event_id]);
}
