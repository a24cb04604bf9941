import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { addMessageRollups } from "./add-message-rollups";

/**
 * Credits a click or an unsubscribe to the message it came from, in the caller's transaction: the first
 * of each kind counts in the rollups, later clicks only add to the message's counter. A message that is
 * gone (its template deleted, the user erased) is simply not credited.
 */
export async function recordEngagement(
  ctx: ProjectContext,
  input: { messageId: string; kind: "clicked" | "unsubscribed"; at?: Date },
): Promise<void> {
  const at = (input.at ?? new Date()).toISOString();
  const [row] = await queryRows<{ first: boolean }>(
    ctx.db,
    input.kind === "clicked"
      ? sql`insert into message_engagement as e (project_id, message_id, clicked_at, clicks)
          select m.project_id, m.id, ${at}::timestamptz, 1 from messages m
          where m.project_id = ${ctx.projectId}::uuid and m.id = ${input.messageId}::uuid
          on conflict (project_id, message_id) do update
            set clicks = e.clicks + 1, clicked_at = coalesce(e.clicked_at, excluded.clicked_at)
          returning e.clicks = 1 as first`
      : sql`insert into message_engagement as e (project_id, message_id, unsubscribed_at)
          select m.project_id, m.id, ${at}::timestamptz from messages m
          where m.project_id = ${ctx.projectId}::uuid and m.id = ${input.messageId}::uuid
          on conflict (project_id, message_id) do update
            set unsubscribed_at = coalesce(e.unsubscribed_at, excluded.unsubscribed_at)
          returning e.unsubscribed_at = ${at}::timestamptz as first`,
  );
  if (row?.first) await addMessageRollups(ctx, [{ id: input.messageId, metric: input.kind, at }]);
}
