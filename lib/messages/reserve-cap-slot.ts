import { sql } from "drizzle-orm";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { withTransaction } from "@/lib/db/transaction";

/**
 * The cap slots the user holds on the message's channel, not counting the message: messages of
 * non-transactional templates sent within the window, and queued ones holding a slot. An SQL expression
 * over a message `m` and its project `p`.
 */
export const capSlotsHeld = sql`(
  (select count(*)::int from messages r
    join message_templates rt on rt.project_id = r.project_id and rt.id = r.template_id
    where r.project_id = m.project_id and r.user_id = m.user_id and r.channel = m.channel
      and not rt.transactional and r.id <> m.id and r.state = 'sent'
      and r.created_at > now() - (p.frequency_cap -> m.channel ->> 'per')::interval
      and r.finished_at > now() - (p.frequency_cap -> m.channel ->> 'per')::interval)
  + (select count(*)::int from messages r
    where r.project_id = m.project_id and r.user_id = m.user_id and r.channel = m.channel
      and r.id <> m.id and r.state = 'queued' and r.cap_reserved_at is not null))`;

/**
 * Takes one of the user's frequency-cap slots on the channel for this message, or answers false when
 * the cap is reached. Counting and taking happen under a transaction-scoped advisory lock per (project,
 * user, channel), so two senders deciding at once for the same user (two workers, or two messages of
 * one batch) are serialised: the second counts the first's slot. A provider's retry keeps the slot; a
 * final failure or skip gives it back. One short transaction of its own, one lock: never held across a provider call.
 */
export async function reserveCapSlot(
  { db }: AppContext,
  m: { projectId: string; id: string; userId: string; channel: string },
): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`relay.message-cap:${m.projectId}:${m.userId}:${m.channel}`}, 0))`,
    );
    const taken = await queryRows<{ id: string }>(
      tx,
      sql`update messages m set cap_reserved_at = now()
        from projects p
        where m.project_id = ${m.projectId}::uuid and m.id = ${m.id}::uuid and m.state = 'queued'
          and p.id = m.project_id
          and (m.cap_reserved_at is not null or not (p.frequency_cap ? m.channel)
            or ${capSlotsHeld} < (p.frequency_cap -> m.channel ->> 'count')::int)
        returning m.id`,
    );
    return taken.length > 0;
  });
}
