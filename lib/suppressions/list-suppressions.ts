import { sql } from "drizzle-orm";
import { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { isoTime } from "@/lib/db/iso-time";
import { queryRows } from "@/lib/db/sql";
import { decodeCursor, page } from "@/lib/http/pagination";
import { normalAddress } from "./address";
import type { listSuppressionsQuery, SuppressionView } from "./schemas";

interface Row {
  channel: SuppressionView["channel"];
  address: string;
  reason: SuppressionView["reason"];
  source: string;
  message_id: string | null;
  created_at: string;
}

/** The project's suppressions, newest first; `address` finds those starting with it. */
export async function listSuppressions(ctx: ProjectContext, q: z.output<typeof listSuppressionsQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.string(), z.string(), z.string()]));
  const prefix = q.address ? normalAddress(q.channel ?? "email", q.address) : null;
  // Escaped for LIKE: an address holding `%` or `_` matches itself only.
  const like = prefix ? `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await queryRows<Row>(
    ctx.db,
    sql`select channel, address, reason, source, message_id, created_at::text as created_at from suppressions
      where project_id = ${ctx.projectId}::uuid
        ${q.channel ? sql`and channel = ${q.channel}` : sql``}
        ${like ? sql`and address like ${like}` : sql``}
        ${after ? sql`and (created_at, channel, address) < (${after[0]}::timestamptz, ${after[1]}, ${after[2]})` : sql``}
      order by created_at desc, channel desc, address desc limit ${q.limit + 1}`,
  );
  const views = rows.map((r) => ({ ...r, created_at: isoTime(r.created_at), raw: r.created_at }));
  const { data, next_cursor } = page(views, q.limit, (r) => [r.raw, r.channel, r.address]);
  return { data: data.map(({ raw: _raw, ...v }): SuppressionView => v), next_cursor };
}
