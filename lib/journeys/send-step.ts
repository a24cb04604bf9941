import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { NotFound } from "@/lib/http/errors";
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
  const input = {
    templateId: step.template_id,
    userId: entry.userId,
    cause: { entryId: entry.id, stepKey: step.key },
    journeyData: entry.context,
  };
  let m: Awaited<ReturnType<typeof queueMessage>>;
  try {
    // In a savepoint: a statement that fails (a row deleted under the insert) undoes only this send, never
    // the due batch, which holds every project's entries.
    m = await ctx.db.transaction((tx) => queueMessage({ ...ctx, db: tx }, input));
  } catch (err) {
    // The template (or the user) is gone: a delete raced the journey, or came before deletes were checked.
    // The step records why and the entry moves on; throwing would roll back and retry the batch forever.
    if (!(err instanceof NotFound)) throw err;
    return { outcome: `failed: ${/template/i.test(err.message) ? "the template" : "the user"} no longer exists` };
  }
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
