import { sql } from "drizzle-orm";
import { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { decodeCursor, page } from "@/lib/http/pagination";
import { broadcastViews } from "./broadcast-view";
import type { listBroadcastsQuery } from "./schemas";

/** The project's broadcasts, newest first. */
export async function listBroadcasts(ctx: ProjectContext, q: z.output<typeof listBroadcastsQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const where = sql.join(
    [
      sql`true`,
      q.state ? sql`b.state = ${q.state}` : undefined,
      q.tag ? sql`${q.tag} = any(b.tags)` : undefined,
      after ? sql`b.id < ${after[0]}::uuid` : undefined,
    ].filter((c) => c !== undefined),
    sql` and `,
  );
  return page(await broadcastViews(ctx, { where, limit: q.limit + 1 }), q.limit, (b) => [b.id]);
}
