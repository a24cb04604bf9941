import { sql } from "drizzle-orm";
import { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { decodeCursor, page } from "@/lib/http/pagination";
import { messageViews } from "./message-view";
import type { listMessagesQuery } from "./schemas";

/** The messages log, newest first, filtered by user, template, journey, broadcast and state. */
export async function listMessages(ctx: ProjectContext, q: z.output<typeof listMessagesQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const where = sql.join(
    [
      sql`true`,
      q.user_id ? sql`m.user_id = ${q.user_id}::uuid` : undefined,
      q.template_id ? sql`m.template_id = ${q.template_id}::uuid` : undefined,
      q.broadcast_id ? sql`m.broadcast_id = ${q.broadcast_id}::uuid` : undefined,
      q.journey_id ? sql`e.journey_id = ${q.journey_id}::uuid` : undefined,
      q.state ? sql`m.state = ${q.state}` : undefined,
      after ? sql`m.id < ${after[0]}::uuid` : undefined,
    ].filter((c) => c !== undefined),
    sql` and `,
  );
  const rows = await messageViews(ctx, { where, limit: q.limit + 1 });
  return page(rows, q.limit, (m) => [m.id]);
}
