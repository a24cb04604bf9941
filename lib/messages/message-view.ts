import { sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { MessageDelivery } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { isoTime } from "@/lib/db/iso-time";
import { queryRows } from "@/lib/db/sql";
import { deliveryOf } from "@/lib/feedback/delivery-rank";
import type { messageOutput } from "./schemas";

export type MessageView = z.infer<typeof messageOutput>;

interface Row {
  id: string;
  channel: MessageView["channel"];
  template_id: string;
  template_name: string;
  template_version_id: string | null;
  template_version: number | null;
  user_id: string;
  recipient: string | null;
  state: MessageView["state"];
  reason: string | null;
  attempts: number;
  provider_message_id: string | null;
  subject: string | null;
  locale: string | null;
  journey_id: string | null;
  journey_entry_id: string | null;
  journey_step_key: string | null;
  broadcast_id: string | null;
  next_attempt_at: string | null;
  created_at: string;
  finished_at: string | null;
  delivery: MessageDelivery | null;
}

/** The project's messages matching `where` (over `m`, the message, and `e`, its journey entry), newest first. */
export async function messageViews(ctx: ProjectContext, { where, limit }: { where: SQL; limit: number }) {
  const rows = await queryRows<Row>(
    ctx.db,
    sql`select m.id, m.channel, m.template_id, t.name as template_name,
      m.template_version_id, v.number as template_version, m.user_id, m.recipient, m.state, m.reason,
      m.attempts, m.provider_message_id, m.subject, m.locale, e.journey_id, m.journey_entry_id, m.journey_step_key,
      m.broadcast_id, case when m.state = 'queued' then m.next_attempt_at end as next_attempt_at, m.created_at,
      m.finished_at, ${deliveryOf(sql`m.project_id`, sql`m.id`)} as delivery
    from messages m
    join message_templates t on t.project_id = m.project_id and t.id = m.template_id
    left join authoring_versions v on v.project_id = m.project_id and v.id = m.template_version_id
    left join journey_entries e on e.project_id = m.project_id and e.id = m.journey_entry_id
    where m.project_id = ${ctx.projectId}::uuid and ${where}
    order by m.id desc limit ${limit}`,
  );
  return rows.map(
    (r): MessageView => ({
      id: r.id,
      channel: r.channel,
      template: {
        id: r.template_id,
        name: r.template_name,
        version_id: r.template_version_id,
        version: r.template_version,
      },
      user_id: r.user_id,
      recipient: r.recipient,
      state: r.state,
      reason: r.reason,
      attempts: r.attempts,
      provider_message_id: r.provider_message_id,
      subject: r.subject,
      locale: r.locale,
      cause: {
        journey_id: r.journey_id,
        journey_entry_id: r.journey_entry_id,
        journey_step_key: r.journey_step_key,
        broadcast_id: r.broadcast_id,
      },
      next_attempt_at: r.next_attempt_at ? isoTime(r.next_attempt_at) : null,
      created_at: isoTime(r.created_at),
      finished_at: r.finished_at ? isoTime(r.finished_at) : null,
      delivery: r.delivery
        ? {
            state: r.delivery.state,
            type: r.delivery.type ?? null,
            code: r.delivery.code ?? null,
            reason: r.delivery.reason ?? null,
            at: new Date(r.delivery.at).toISOString(),
          }
        : null,
    }),
  );
}
