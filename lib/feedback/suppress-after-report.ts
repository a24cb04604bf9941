import { sql } from "drizzle-orm";
import type { SendChannel } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { addSuppressions } from "@/lib/suppressions/add-suppressions";
import { DEFAULT_BOUNCE_POLICY } from "@/lib/suppressions/schemas";
import type { FeedbackReport } from "./report";

/**
 * The suppression a just-recorded report calls for, in its transaction: a hard bounce, a complaint or a
 * carrier's refusal at once; soft bounces once the address has had the project's bounce policy's count of
 * them within its window (the one just recorded included).
 */
export async function suppressAfterReport(
  ctx: ProjectContext,
  input: { report: FeedbackReport; channel: SendChannel; address: string; messageId: string },
): Promise<void> {
  const { report: r, channel, address, messageId } = input;
  const entry = { channel, address, source: r.source, messageId };
  if (r.carrier) return void (await addSuppressions(ctx, { entries: [{ ...entry, reason: "carrier" }] }));
  if (r.kind === "complained")
    return void (await addSuppressions(ctx, { entries: [{ ...entry, reason: "complaint" }] }));
  if (r.kind !== "bounced" || !r.bounce) return;
  if (r.bounce.type === "hard")
    return void (await addSuppressions(ctx, { entries: [{ ...entry, reason: "hard_bounce" }] }));
  const [row] = await queryRows<{ n: number; limit: number }>(
    ctx.db,
    sql`select (select count(*)::int from message_events e
        where e.project_id = p.id and e.address = ${address} and e.kind = 'bounced' and e.detail->>'type' = 'soft'
          and e.at > now() - coalesce(p.bounce_policy->>'within', ${DEFAULT_BOUNCE_POLICY.within})::interval) as n,
      coalesce((p.bounce_policy->>'soft_bounces')::int, ${DEFAULT_BOUNCE_POLICY.soft_bounces}) as limit
      from projects p where p.id = ${ctx.projectId}::uuid`,
  );
  if (row && row.n >= row.limit) await addSuppressions(ctx, { entries: [{ ...entry, reason: "soft_bounces" }] });
}
