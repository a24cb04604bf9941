import { sql } from "drizzle-orm";
import type { SendChannel } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { addSuppressions, type SuppressionEntry } from "@/lib/suppressions/add-suppressions";
import { DEFAULT_BOUNCE_POLICY } from "@/lib/suppressions/schemas";
import type { FeedbackReport } from "./report";

export interface ReportedAddress {
  report: FeedbackReport;
  channel: SendChannel;
  /** The message's recipient, normalised (normalAddress). */
  address: string;
  messageId: string;
}

/**
 * The suppressions just-recorded reports call for, in their transaction, in two statements at most: a
 * hard bounce, a complaint or a carrier's refusal suppresses at once; soft bounces once the address has
 * had the project's bounce policy's count of them within its window (those just recorded included). An
 * address already suppressed keeps its first reason (addSuppressions).
 */
export async function suppressAfterReports(ctx: ProjectContext, { reports }: { reports: ReportedAddress[] }) {
  const entries: SuppressionEntry[] = [];
  const soft = new Map<string, ReportedAddress>();
  for (const x of reports) {
    const { report: r } = x;
    const entry = { channel: x.channel, address: x.address, source: r.source, messageId: x.messageId };
    if (r.carrier) entries.push({ ...entry, reason: "carrier" });
    else if (r.kind === "complained") entries.push({ ...entry, reason: "complaint" });
    else if (r.kind === "bounced" && r.bounce?.type === "hard") entries.push({ ...entry, reason: "hard_bounce" });
    else if (r.kind === "bounced" && r.bounce && !soft.has(x.address)) soft.set(x.address, x);
  }
  if (soft.size) {
    const over = await queryRows<{ address: string }>(
      ctx.db,
      sql`select a.address from projects p,
          jsonb_array_elements_text(${JSON.stringify([...soft.keys()])}::jsonb) as a(address)
        where p.id = ${ctx.projectId}::uuid
          and (select count(*) from message_events e
            where e.project_id = p.id and e.address = a.address and e.kind = 'bounced' and e.detail->>'type' = 'soft'
              and e.at > now() - coalesce(p.bounce_policy->>'within', ${DEFAULT_BOUNCE_POLICY.within})::interval)
            >= coalesce((p.bounce_policy->>'soft_bounces')::int, ${DEFAULT_BOUNCE_POLICY.soft_bounces})`,
    );
    for (const { address } of over) {
      const x = soft.get(address)!;
      entries.push({
        channel: x.channel,
        address,
        source: x.report.source,
        messageId: x.messageId,
        reason: "soft_bounces",
      });
    }
  }
  await addSuppressions(ctx, { entries });
}
