import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { isoTime } from "@/lib/db/iso-time";
import { queryRows } from "@/lib/db/sql";
import type { messageEventOutput } from "@/lib/messages/schemas";

type MessageEventView = z.infer<typeof messageEventOutput>;

/** The reports recorded about one message of the project, oldest first (the first 100). */
export async function messageEvents(ctx: ProjectContext, { messageId }: { messageId: string }) {
  const rows = await queryRows<{
    kind: MessageEventView["kind"];
    at: string;
    source: MessageEventView["source"];
    detail: Record<string, unknown>;
  }>(
    ctx.db,
    sql`select kind, at::text as at, source, detail from message_events
      where project_id = ${ctx.projectId}::uuid and message_id = ${messageId}::uuid
      order by at, id limit 100`,
  );
  return rows.map((r): MessageEventView => ({ kind: r.kind, at: isoTime(r.at), source: r.source, detail: r.detail }));
}
