import { sql } from "drizzle-orm";
import type { MessageState } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { addMessageRollups } from "@/lib/reports/add-message-rollups";
import { storableText } from "@/lib/db/storable-text";
import { wakeEntryForMessage } from "@/lib/journeys/wake-entry";

export interface FinalOutcome {
  id: string;
  state: Exclude<MessageState, "queued">;
  reason: string | null;
  recipient?: string | null;
  subject?: string | null;
  locale?: string | null;
  providerId?: string | null;
  providerMessageId?: string | null;
  /** The provider was called for it: its attempt is counted with this write. */
  attempted?: boolean;
}

/**
 * Gives messages of one project their final state, only while they are still queued (a message is final
 * once), and wakes the journey entries that wait for them, in the caller's transaction. Returns the ids
 * that became final.
 */
export async function finishMessages(ctx: ProjectContext, outcomes: FinalOutcome[]): Promise<string[]> {
  if (!outcomes.length) return [];
  const rows = JSON.stringify(
    outcomes.map((o) => ({
      id: o.id,
      state: o.state,
      // Storable text: a provider's reply or a rendered subject can hold a NUL or a lone surrogate, which
      // jsonb refuses, and one such row made the whole batch of outcomes unwritable.
      reason: storableText(o.reason),
      recipient: storableText(o.recipient ?? null),
      subject: storableText(o.subject ?? null),
      locale: storableText(o.locale ?? null),
      provider_id: o.providerId ?? null,
      provider_message_id: storableText(o.providerMessageId ?? null),
      a: Boolean(o.attempted),
    })),
  );
  const done = (await ctx.db.execute(sql`
    update messages m set state = o.state, reason = o.reason, finished_at = now(), lease_until = null,
      recipient = coalesce(o.recipient, m.recipient), subject = coalesce(o.subject, m.subject),
      locale = coalesce(o.locale, m.locale), provider_id = coalesce(o.provider_id, m.provider_id),
      provider_message_id = coalesce(o.provider_message_id, m.provider_message_id),
      attempts = m.attempts + case when o.a then 1 else 0 end
    from jsonb_to_recordset(${rows}::jsonb) as o(id uuid, state text, reason text, recipient text, subject text,
      locale text, provider_id uuid, provider_message_id text, a boolean)
    where m.project_id = ${ctx.projectId}::uuid and m.id = o.id and m.state = 'queued'
    returning m.id, m.journey_entry_id, m.journey_step_key`)) as unknown as {
    id: string;
    journey_entry_id: string | null;
    journey_step_key: string | null;
  }[];
  const sent = new Set(outcomes.filter((o) => o.state === "sent").map((o) => o.id));
  const at = new Date();
  await addMessageRollups(
    ctx,
    done.filter((r) => sent.has(r.id)).map((r) => ({ id: r.id, metric: "sent" as const, at })),
  );
  for (const r of done)
    if (r.journey_entry_id && r.journey_step_key)
      await wakeEntryForMessage(ctx, { entryId: r.journey_entry_id, stepKey: r.journey_step_key });
  return done.map((r) => r.id);
}
