import { sql } from "drizzle-orm";
import { type AppContext, systemContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { withTransaction } from "@/lib/db/transaction";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { addMessageRollups } from "./add-message-rollups";
import { isMachineOpen } from "./machine-open";
import { readOpenToken } from "./open-token";

/**
 * Records one fetch of a message's open pixel. The first open by a person counts `opened` and records
 * `message.opened` for the user; the first by a machine (machine-open.ts) counts `opened_machine`; every
 * later fetch only adds to the message's counters. Answers whether the token was valid: a forged or
 * changed one records nothing. One transaction; the message row is locked by its engagement row's upsert.
 */
export async function recordOpen(
  ctx: AppContext,
  input: { token: string; userAgent: string | null; ip: string | null; at?: Date },
): Promise<boolean> {
  const claim = readOpenToken(input.token);
  if (!claim) return false;
  const at = input.at ?? new Date();
  await withTransaction(ctx.db, async (tx) => {
    const pctx = systemContext(tx, claim.projectId);
    const [m] = await queryRows<{
      user_id: string;
      template_id: string;
      broadcast_id: string | null;
      journey_entry_id: string | null;
      finished_at: string | null;
    }>(
      tx,
      sql`select user_id, template_id, broadcast_id, journey_entry_id, finished_at from messages
        where project_id = ${claim.projectId}::uuid and id = ${claim.messageId}::uuid and state = 'sent'`,
    );
    if (!m) return;
    const machine = isMachineOpen({
      userAgent: input.userAgent,
      ip: input.ip,
      sentAt: m.finished_at ? new Date(m.finished_at) : null,
      at,
    });
    const [row] = await queryRows<{ first: boolean; any_before: boolean }>(
      tx,
      machine
        ? sql`insert into message_engagement as e (project_id, message_id, machine_opened_at, machine_opens)
            values (${claim.projectId}::uuid, ${claim.messageId}::uuid, ${at.toISOString()}::timestamptz, 1)
            on conflict (project_id, message_id) do update set machine_opens = e.machine_opens + 1,
              machine_opened_at = coalesce(e.machine_opened_at, excluded.machine_opened_at)
            returning e.machine_opens = 1 as first, e.opens > 0 as any_before`
        : sql`insert into message_engagement as e (project_id, message_id, opened_at, opens)
            values (${claim.projectId}::uuid, ${claim.messageId}::uuid, ${at.toISOString()}::timestamptz, 1)
            on conflict (project_id, message_id) do update set opens = e.opens + 1,
              opened_at = coalesce(e.opened_at, excluded.opened_at)
            returning e.opens = 1 as first, e.machine_opens > 0 as any_before`,
    );
    if (!row?.first) return;
    // One `message.opened` per message: at its first open of either kind, marked when a machine made it.
    if (!row.any_before)
      await recordSystemEvents(pctx, [
        {
          name: "message.opened",
          userId: m.user_id,
          data: {
            message_id: claim.messageId,
            template_id: m.template_id,
            ...(m.broadcast_id ? { broadcast_id: m.broadcast_id } : {}),
            ...(m.journey_entry_id ? { journey_entry_id: m.journey_entry_id } : {}),
            machine,
          },
        },
      ]);
    // Last: the rollup rows are shared by every open of the broadcast this hour, and stay locked until
    // the commit, so nothing else of this transaction waits while holding them.
    await addMessageRollups(pctx, [{ id: claim.messageId, metric: machine ? "opened_machine" : "opened", at }]);
  });
  return true;
}
