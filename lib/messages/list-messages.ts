import { sql } from "drizzle-orm";
import { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { decodeCursor, page } from "@/lib/http/pagination";
import { messageViews } from "./message-view";
import type { listMessagesQuery } from "./schemas";

const ENGAGEMENT = {
  opened: sql`g.opened_at is not null`,
  opened_machine: sql`g.machine_opened_at is not null`,
  clicked: sql`g.clicked_at is not null`,
  unsubscribed: sql`g.unsubscribed_at is not null`,
  converted: sql`g.converted_at is not null`,
};

const DELIVERY = new Set(["delivered", "bounced", "complained"]);

/**
 * Messages that did `event`: a probe of their engagement row each (its key is the message's), or for a
 * delivery report's kind of their reports (message_events_dedupe_uq leads with the message).
 */
const eventFilter = (event: NonNullable<z.output<typeof listMessagesQuery>["event"]>) =>
  DELIVERY.has(event)
    ? sql`exists (select 1 from message_events v where v.project_id = m.project_id and v.message_id = m.id and v.kind = ${event})`
    : sql`exists (select 1 from message_engagement g where g.project_id = m.project_id and g.message_id = m.id and ${ENGAGEMENT[event as keyof typeof ENGAGEMENT]})`;

/** The messages log, newest first, filtered by user, template, journey (and step), broadcast, state and what they did. */
export async function listMessages(ctx: ProjectContext, q: z.output<typeof listMessagesQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const where = sql.join(
    [
      sql`true`,
      q.user_id ? sql`m.user_id = ${q.user_id}::uuid` : undefined,
      q.template_id ? sql`m.template_id = ${q.template_id}::uuid` : undefined,
      q.broadcast_id ? sql`m.broadcast_id = ${q.broadcast_id}::uuid` : undefined,
      q.journey_id ? sql`e.journey_id = ${q.journey_id}::uuid` : undefined,
      q.step ? sql`m.journey_step_key = ${q.step}` : undefined,
      q.state ? sql`m.state = ${q.state}` : undefined,
      q.event ? eventFilter(q.event) : undefined,
      after ? sql`m.id < ${after[0]}::uuid` : undefined,
    ].filter((c) => c !== undefined),
    sql` and `,
  );
  const rows = await messageViews(ctx, { where, limit: q.limit + 1 });
  return page(rows, q.limit, (m) => [m.id]);
}
