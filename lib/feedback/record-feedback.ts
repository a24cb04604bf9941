import { sql } from "drizzle-orm";
import type { MessageDelivery, SendChannel } from "@/db/schema";
import type { FeedbackReport } from "./report";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { withTransaction } from "@/lib/db/transaction";
import { recordSystemEvents, type SystemEvent } from "@/lib/events/record-system-events";
import { metrics } from "@/lib/observability/metrics";
import { addMessageRollups } from "@/lib/reports/add-message-rollups";
import { deliveryRank } from "./delivery-rank";
import { normalAddress } from "@/lib/suppressions/address";
import { suppressAfterReport } from "./suppress-after-report";

export type FeedbackOutcome = "recorded" | "duplicate" | "unknown_message";

interface MessageRow {
  id: string;
  user_id: string;
  template_id: string;
  broadcast_id: string | null;
  journey_id: string | null;
  channel: SendChannel;
  recipient: string | null;
  state: string;
  delivery: MessageDelivery | null;
}

const SYSTEM_EVENT = { delivered: "message.delivered", bounced: "message.bounced", complained: "message.complained" };

/**
 * Records reports about this project's messages, each exactly once, in one transaction: the message event
 * (unique by message and dedupe key, so a retried report finds its row and writes nothing more), the
 * message's delivery (never weakened: deliveryRank), the user's `message.*` system event through the
 * pipeline, and the suppression a hard bounce, complaint, carrier refusal or the bounce policy calls for.
 * A report naming no message of this project (or one never sent) is dropped and counted, not an error.
 */
export async function recordFeedback(
  ctx: ProjectContext,
  { reports }: { reports: FeedbackReport[] },
): Promise<FeedbackOutcome[]> {
  const outcomes = await withTransaction(ctx.db, async (tx) => {
    const inTx = { ...ctx, db: tx };
    const out: FeedbackOutcome[] = [];
    for (const r of reports) out.push(await recordOne(inTx, r));
    return out;
  });
  for (const [i, r] of reports.entries()) metrics.feedbackReports.inc({ source: r.source, outcome: outcomes[i]! });
  return outcomes;
}

async function recordOne(ctx: ProjectContext, r: FeedbackReport): Promise<FeedbackOutcome> {
  // Locked: two reports about one message at once take turns, so the stronger delivery always wins.
  const [m] = await queryRows<MessageRow>(
    ctx.db,
    sql`select m.id, m.user_id, m.template_id, m.broadcast_id, e.journey_id, m.channel, m.recipient, m.state,
        m.delivery
      from messages m
      left join journey_entries e on e.project_id = m.project_id and e.id = m.journey_entry_id
      where m.project_id = ${ctx.projectId}::uuid and m.id = ${r.messageId}::uuid
      for update of m`,
  );
  if (!m || m.state !== "sent") return "unknown_message";
  const at = r.at && !Number.isNaN(r.at.getTime()) ? r.at : new Date();
  const detail = {
    ...(r.detail ?? {}),
    ...(r.bounce ? { type: r.bounce.type, code: r.bounce.code, reason: r.bounce.reason } : {}),
    ...(r.address ? { address: r.address } : {}),
    ...(r.carrier ? { carrier: true } : {}),
  };
  const address = m.recipient ? normalAddress(m.channel, m.recipient) : null;
  const inserted = await ctx.db.execute(sql`
    insert into message_events (project_id, message_id, kind, at, source, detail, dedupe_key, address)
    values (${ctx.projectId}::uuid, ${m.id}::uuid, ${r.kind}, ${at.toISOString()}::timestamptz, ${r.source},
      ${JSON.stringify(detail)}::jsonb, ${r.dedupeKey.slice(0, 500)}, ${address})
    on conflict (project_id, message_id, dedupe_key) do nothing
    returning id`);
  if (!inserted.length) return "duplicate";
  // A report's figure counts each message once per kind: at the first report of that kind about it.
  if (r.kind !== "deferred") {
    const [kind] = await queryRows<{ first: boolean }>(
      ctx.db,
      sql`select count(*) = 1 as first from message_events
        where project_id = ${ctx.projectId}::uuid and message_id = ${m.id}::uuid and kind = ${r.kind}`,
    );
    if (kind?.first) await addMessageRollups(ctx, [{ id: m.id, metric: r.kind, at }]);
  }

  const next: MessageDelivery = {
    state: r.kind,
    ...(r.bounce ? { type: r.bounce.type, code: r.bounce.code, reason: r.bounce.reason } : {}),
    at: at.toISOString(),
  };
  const changed = deliveryRank(next) >= deliveryRank(m.delivery);
  if (changed)
    await ctx.db.execute(sql`update messages set delivery = ${JSON.stringify(next)}::jsonb
      where project_id = ${ctx.projectId}::uuid and id = ${m.id}::uuid`);
  if (changed && r.kind !== "deferred") {
    const event: SystemEvent = {
      name: SYSTEM_EVENT[r.kind] as SystemEvent["name"],
      userId: m.user_id,
      occurredAt: at,
      data: {
        message_id: m.id,
        template_id: m.template_id,
        broadcast_id: m.broadcast_id,
        journey_id: m.journey_id,
        channel: m.channel,
        source: r.source,
        ...(r.bounce ? { type: r.bounce.type, code: r.bounce.code, reason: r.bounce.reason } : {}),
      },
    };
    await recordSystemEvents(ctx, [event]);
  }
  if (address) await suppressAfterReport(ctx, { report: r, channel: m.channel, address, messageId: m.id });
  return "recorded";
}
