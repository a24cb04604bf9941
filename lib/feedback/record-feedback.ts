import { sql } from "drizzle-orm";
import type { MessageDelivery, SendChannel } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows, uuidArray } from "@/lib/db/sql";
import { storableJson, storableText } from "@/lib/db/storable-text";
import { isTransaction, withTransaction } from "@/lib/db/transaction";
import { uuidv7s } from "@/lib/db/uuidv7";
import { recordSystemEvents, type SystemEvent } from "@/lib/events/record-system-events";
import { metrics } from "@/lib/observability/metrics";
import { deferWakeToCommit, wakeIntakeAfter } from "@/lib/pipeline/wake-intake";
import { addMessageRollups, type MessageCount } from "@/lib/reports/add-message-rollups";
import { normalAddress } from "@/lib/suppressions/address";
import { deliveryOf, deliveryRank } from "./delivery-rank";
import type { FeedbackReport } from "./report";
import { suppressAfterReports } from "./suppress-after-report";

export type FeedbackOutcome = "recorded" | "duplicate" | "unknown_message";

interface MessageRow {
  id: string;
  user_id: string;
  template_id: string;
  broadcast_id: string | null;
  variant: number | null;
  journey_entry_id: string | null;
  journey_id: string | null;
  channel: SendChannel;
  recipient: string | null;
  state: string;
}

/** A report whose message was found, sent, with what it will write. */
interface Found {
  i: number;
  r: FeedbackReport;
  m: MessageRow;
  at: Date;
  address: string | null;
}

const SYSTEM_EVENT = { delivered: "message.delivered", bounced: "message.bounced", complained: "message.complained" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Records reports about this project's messages, each exactly once, in one transaction and a fixed number
 * of statements however many reports there are: the message events (unique by message and dedupe key, so
 * a retried report, or the same one twice in a batch, finds its row and writes nothing more), and with
 * them each message's delivery (its strongest event: deliveryOf; nothing is written on the message), the
 * users' `message.*` system events of the reports that moved a delivery, through the pipeline, and the
 * suppressions a hard bounce, complaint, carrier refusal or the bounce policy calls for.
 * A report naming no message of this project (or one never sent) is dropped and counted, not an error.
 */
export async function recordFeedback(
  ctx: ProjectContext,
  { reports }: { reports: FeedbackReport[] },
): Promise<FeedbackOutcome[]> {
  // The drain is woken after the commit, not by a NOTIFY in the transaction: PostgreSQL holds a lock on
  // the notification queue from before a notifying commit is flushed until it is done, so concurrent posts
  // committed one at a time (lib/pipeline/wake-intake.ts). In a caller's transaction the system events'
  // own NOTIFY joins it.
  const own = !isTransaction(ctx.db);
  const outcomes = reports.length
    ? await withTransaction(ctx.db, (tx) => {
        const inTx = { ...ctx, db: tx };
        if (own) deferWakeToCommit(inTx);
        return recordAll(inTx, reports);
      })
    : [];
  if (own && outcomes.includes("recorded")) await wakeIntakeAfter(ctx);
  for (const [i, r] of reports.entries()) metrics.feedbackReports.inc({ source: r.source, outcome: outcomes[i]! });
  return outcomes;
}

/**
 * The report with every text a source wrote made storable (storableText): a NUL or a lone surrogate in a
 * DSN's diagnostic or a webhook's reason would otherwise make the whole batch unwritable, and the source
 * would retry it forever.
 */
function storableReport(r: FeedbackReport): FeedbackReport {
  return {
    ...r,
    dedupeKey: storableText(r.dedupeKey.slice(0, 500)),
    address: r.address == null ? r.address : storableText(r.address),
    bounce: r.bounce && {
      type: r.bounce.type,
      code: storableText(r.bounce.code),
      reason: storableText(r.bounce.reason),
    },
    detail: r.detail && (JSON.parse(storableJson(r.detail)) as Record<string, unknown>),
  };
}

/**
 * Whether a source's timestamp is a time PostgreSQL stores and a report can have: a JavaScript Date
 * reaches far before 4713 BC (timestamptz's first), which refused the whole batch. A report's own time
 * before 2000 or more than a day ahead is the source's mistake, and the time it arrived stands instead.
 */
function storableTime(at: Date): boolean {
  const t = at.getTime();
  return t >= Date.UTC(2000, 0, 1) && t <= Date.now() + 86_400_000;
}

async function recordAll(ctx: ProjectContext, given: FeedbackReport[]): Promise<FeedbackOutcome[]> {
  const reports = given.map(storableReport);
  const out: FeedbackOutcome[] = reports.map(() => "unknown_message");
  const ids = [...new Set(reports.map((r) => r.messageId).filter((id) => UUID.test(id)))];
  if (!ids.length) return out;
  // Locked in id order: two batches about the same messages take turns (so the stronger delivery always
  // wins) and never wait on each other crosswise.
  const rows = await queryRows<MessageRow>(
    ctx.db,
    sql`select m.id, m.user_id, m.template_id, m.broadcast_id, m.variant, m.journey_entry_id, e.journey_id, m.channel,
        m.recipient, m.state
      from messages m
      left join journey_entries e on e.project_id = m.project_id and e.id = m.journey_entry_id
      where m.project_id = ${ctx.projectId}::uuid and m.id = any(${uuidArray(ids)})
      order by m.id
      for update of m`,
  );
  const messages = new Map(rows.map((m) => [m.id.toLowerCase(), m]));
  const found: Found[] = [];
  for (const [i, r] of reports.entries()) {
    const m = messages.get(r.messageId.toLowerCase());
    if (m?.state !== "sent") continue;
    const at = r.at && storableTime(r.at) ? r.at : new Date();
    found.push({ i, r, m, at, address: m.recipient ? normalAddress(m.channel, m.recipient) : null });
  }
  if (!found.length) return out;

  // Sorted, so that ids grow in report order: of equally strong reports the last is the delivery
  // (deliveryOf), and this batch's come after every earlier batch's (drawn after the lock they waited for).
  const eventIds = uuidv7s(found.length).sort();
  const events = found.map(({ i, r, m, at, address }, n) => ({
    i,
    id: eventIds[n],
    m: m.id,
    k: r.kind,
    at: at.toISOString(),
    s: r.source,
    d: {
      ...(r.detail ?? {}),
      ...(r.bounce ? { type: r.bounce.type, code: r.bounce.code, reason: r.bounce.reason } : {}),
      ...(r.address ? { address: r.address } : {}),
      ...(r.carrier ? { carrier: true } : {}),
    },
    key: r.dedupeKey,
    a: address,
  }));
  // Answers the reports whose event was inserted (of two in the batch with one key, both name the one row:
  // the first in batch order counts), each with `first`: whether its message had no event of its kind
  // before this batch (a report's figure counts each message once per kind), and `delivery`: where its
  // message stood before this batch. Both are read after the lock, so no other batch's events are missed.
  const inserted = await queryRows<{ i: number; first: boolean; delivery: MessageDelivery | null }>(
    ctx.db,
    sql`with x as materialized (
        select * from jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
          as x(i int, id uuid, m uuid, k text, at timestamptz, s text, d jsonb, key text, a text)
      ), before as (
        -- Per report, one probe of its message's events of its kind (a lateral with a limit: a semi-join
        -- was planned as a scan of all the project's events whenever their statistics were stale).
        select x.i, seen.one is not null as seen from x
        left join lateral (select 1 as one from message_events e
          where e.project_id = ${ctx.projectId}::uuid and e.message_id = x.m and e.kind = x.k limit 1) seen on true
      ), stood as (
        select s.m, ${deliveryOf(sql`${ctx.projectId}::uuid`, sql`s.m`)} as delivery from (select distinct m from x) s
      ), ins as (
        insert into message_events (project_id, id, message_id, kind, at, source, detail, dedupe_key, address)
        select ${ctx.projectId}::uuid, x.id, x.m, x.k, x.at, x.s, x.d, x.key, x.a from x order by x.i
        on conflict (project_id, message_id, dedupe_key) do nothing
        returning message_id, dedupe_key
      )
      select x.i, not before.seen as first, stood.delivery
      from x join ins on ins.message_id = x.m and ins.dedupe_key = x.key join before on before.i = x.i
        join stood on stood.m = x.m
      order by x.i`,
  );
  const recorded = new Set<number>();
  const kept = new Set<string>();
  const counts: MessageCount[] = [];
  const counted = new Set<string>();
  const byIndex = new Map(found.map((f) => [f.i, f]));
  const stood = new Map<string, MessageDelivery | null>();
  for (const { i, first, delivery } of inserted) {
    const f = byIndex.get(i)!;
    stood.set(f.m.id, delivery);
    // Two new reports with one key in one batch: the insert kept one row, and the first in order is it.
    const key = `${f.m.id}/${f.r.dedupeKey}`;
    if (kept.has(key)) continue;
    kept.add(key);
    recorded.add(i);
    const kind = `${f.m.id}/${f.r.kind}`;
    if (first && f.r.kind !== "deferred" && !counted.has(kind)) {
      counted.add(kind);
      const { m } = f;
      // A message outside journeys is counted from what the lock read of it (no second read).
      const message = m.journey_entry_id
        ? undefined
        : { templateId: m.template_id, broadcastId: m.broadcast_id, variant: m.variant };
      counts.push({ id: m.id, metric: f.r.kind, at: f.at, ...(message ? { message } : {}) });
    }
  }
  for (const f of found) out[f.i] = recorded.has(f.i) ? "recorded" : "duplicate";

  // System events in report order, per message: a report moves the delivery (and tells the user) when it
  // is at least as strong as where the message stands after the reports before it, as deliveryOf reads it.
  const standing = new Map<string, number>();
  const system: SystemEvent[] = [];
  for (const f of found) {
    if (!recorded.has(f.i)) continue;
    const { r, m, at } = f;
    const rank = deliveryRank({ state: r.kind, type: r.bounce?.type });
    if (rank < (standing.get(m.id) ?? deliveryRank(stood.get(m.id) ?? null))) continue;
    standing.set(m.id, rank);
    if (r.kind === "deferred") continue;
    system.push({
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
    });
  }
  await recordSystemEvents(ctx, system);
  await suppressAfterReports(ctx, {
    reports: found.flatMap(({ i, r, m, address }) =>
      recorded.has(i) && address ? [{ report: r, channel: m.channel, address, messageId: m.id }] : [],
    ),
  });
  // Last: every batch of the project counts into the same few rollup rows (scope, shard, hour) and holds
  // them until it commits, so concurrent batches queue there for this statement and the commit only.
  await addMessageRollups(ctx, counts);
  return out;
}
