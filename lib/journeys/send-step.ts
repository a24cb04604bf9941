import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { queueMessage } from "@/lib/messages/queue-message";
import type { Step } from "./step-schema";
import type { EntryInHand } from "./walk";

/** The path's words for a message's final state. */
function outcomeOf(m: { id: string; state: string; reason: string | null }): string | null {
  if (m.state === "sent") return `sent message ${m.id}`;
  if (m.state === "skipped") return `skipped: ${m.reason ?? "no reason given"}`;
  if (m.state === "failed") return `failed: ${m.reason ?? "no reason given"}`;
  return null;
}

/**
 * A `send` step in the due claim's transaction: queues the template's message for the entry's user,
 * keyed by (entry, step), so a retried claim finds the same message and never queues a second. A final
 * answer (a skip decided at once) is the step's outcome; a queued message makes the entry wait until
 * lib/messages wakes it (wake-entry.ts).
 */
export async function sendStep(
  ctx: ProjectContext,
  { entry, step }: { entry: EntryInHand; step: Step & { kind: "send" } },
): Promise<{ outcome: string } | { waitFor: string }> {
  const m = await queueMessage(ctx, {
    templateId: step.template_id,
    userId: entry.userId,
    cause: { entryId: entry.id, stepKey: step.key },
    journeyData: entry.context,
  });
  const outcome = outcomeOf(m);
  return outcome ? { outcome } : { waitFor: m.id };
}

/** The outcome of the message a woken `send` step waited for; null while it is still queued. */
export async function sentOutcome(ctx: ProjectContext, { messageId }: { messageId: string }): Promise<string | null> {
  const [m] = await queryRows<{ id: string; state: string; reason: string | null }>(
    ctx.db,
    sql`select id, state, reason from messages where project_id = ${ctx.projectId}::uuid and id = ${messageId}::uuid`,
  );
  return m ? outcomeOf(m) : "failed: the message is gone";
}
