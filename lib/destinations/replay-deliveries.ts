import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { RuleBroken } from "@/lib/http/errors";
import { inRetryingTransaction } from "@/lib/db/retry";
import { getDestination } from "./get-destination";
import { insertDeliveriesSql, subscribedSql } from "./message-sql";
import { MAX_REPLAY, MAX_REPLAY_DAYS, type replayBody } from "./schemas";

/**
 * Re-sends the events of a time window that the destination subscribes to, as new messages (new
 * `webhook-id`s), whether or not it is enabled now (a disabled one sends them once it is turned on). Refused with 422
 * when the window is longer than MAX_REPLAY_DAYS or holds more than MAX_REPLAY of them (nothing is queued):
 * replay narrower windows.
 */
export async function replayDeliveries(
  ctx: ProjectContext,
  { destinationId, body: input }: { destinationId: string; body: z.output<typeof replayBody> },
) {
  await getDestination(ctx, destinationId);
  const until = input.until ?? new Date().toISOString();
  if (Date.parse(until) - Date.parse(input.since) > MAX_REPLAY_DAYS * 86_400_000)
    throw new RuleBroken(`A replay window is at most ${MAX_REPLAY_DAYS} days: replay narrower windows.`, {
      errors: [{ path: "since", message: `the window is at most ${MAX_REPLAY_DAYS} days` }],
    });
  return inRetryingTransaction(ctx.db, async (tx) => {
    const [row] = await tx.execute<{ n: number }>(
      insertDeliveriesSql(
        ctx.projectId,
        // At most one past the bound is read: enough to refuse, however many the window holds.
        sql`select e.* from events e
          join destinations d on d.project_id = e.project_id and d.id = ${destinationId}::uuid
          where e.project_id = ${ctx.projectId}::uuid
            and e.occurred_at >= ${input.since}::timestamptz and e.occurred_at < ${until}::timestamptz and ${subscribedSql}
          order by e.occurred_at, e.id limit ${MAX_REPLAY + 1}`,
        sql`select * from destinations where project_id = ${ctx.projectId}::uuid and id = ${destinationId}::uuid`,
      ),
    );
    const n = row?.n ?? 0;
    if (n > MAX_REPLAY)
      throw new RuleBroken(
        `The window holds ${n} messages for this destination, more than ${MAX_REPLAY}: replay a narrower window.`,
      );
    return { queued: n };
  });
}
