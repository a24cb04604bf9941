import { z } from "zod";
import { decodeCursor, encodeCursor } from "@/lib/http/pagination";
import type { ProjectContext } from "@/lib/access/context";
import { findUserId } from "./find-user";
import type { TimelineItem, timelineQuery } from "./schemas";
import { type SourceRow, TIMELINE_SOURCES } from "./timeline-sources";
import { queryRows } from "@/lib/db/sql";

const cursorShape = z.tuple([z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/), z.uuid()]);

/**
 * A user's story, newest first: every TIMELINE_SOURCES feed read from the cursor for `limit + 1` rows,
 * merged on (time, id), cut at `limit`. Keyset pagination: a page deep in a long history costs what the
 * first one does.
 */
export async function userTimeline(
  ctx: ProjectContext,
  { userId, query: q }: { userId: string; query: z.output<typeof timelineQuery> },
) {
  await findUserId(ctx, userId);
  const after = decodeCursor(q.cursor, cursorShape);
  const c = after ? { at: after[0], id: after[1] } : null;
  const rows = [];
  for (const s of TIMELINE_SOURCES)
    rows.push(...(await queryRows<SourceRow>(ctx.db, s.query(ctx, userId, c, q.limit + 1))));
  rows.sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1));
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const data: TimelineItem[] = page.map((r) => ({
    at: `${r.at.slice(0, 23)}Z`,
    id: r.id,
    kind: r.kind,
    title: r.title,
    event_id: r.event_id,
    detail: r.detail,
  }));
  return { data, next_cursor: more && last ? encodeCursor([last.at, last.id]) : null };
}
