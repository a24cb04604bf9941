import { and, eq, sql } from "drizzle-orm";
import { messages, messageTemplates, type MessageState } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { errorCode } from "@/lib/db/errors";
import { NotFound } from "@/lib/http/errors";
import { finishMessages } from "./finish-message";
import { MESSAGES_CHANNEL } from "./notify";
import { quietUntil } from "./quiet-hours";
import { decideSkip, loadSendFacts } from "./send-facts";

export interface QueueMessageInput {
  templateId: string;
  userId: string;
  cause: { entryId: string; stepKey: string } | { broadcastId: string };
  /** The entry's context: `journey.<key>` in templates. */
  journeyData?: Record<string, unknown>;
}

export interface QueuedMessage {
  id: string;
  state: MessageState;
  reason: string | null;
  created: boolean;
}

const FOREIGN_KEY_VIOLATION = "23503";

/**
 * The one way a message comes to be, in the caller's transaction: a row keyed by its cause (a second call
 * for the same cause returns that row, `created: false`, and queues nothing). The skips that can be
 * decided now (no contact, unsubscribed, channel opted out, frequency cap) are final at once; otherwise
 * it is queued, due now or at the end of the user's quiet hours, and a sender picks it up after commit.
 */
export async function queueMessage(ctx: ProjectContext, input: QueueMessageInput): Promise<QueuedMessage> {
  const [template] = await ctx.db
    .select({
      channel: messageTemplates.channel,
      versionId: messageTemplates.versionId,
      buildId: messageTemplates.buildId,
    })
    .from(messageTemplates)
    .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, input.templateId)));
  if (!template) throw new NotFound("No template with this id in this project.");
  const byBroadcast = "broadcastId" in input.cause;
  const cause =
    "broadcastId" in input.cause
      ? { broadcastId: input.cause.broadcastId, journeyEntryId: null, journeyStepKey: null }
      : { broadcastId: null, journeyEntryId: input.cause.entryId, journeyStepKey: input.cause.stepKey };
  let inserted: { id: string }[];
  try {
    inserted = await ctx.db
      .insert(messages)
      .values({
        projectId: ctx.projectId,
        templateId: input.templateId,
        userId: input.userId,
        channel: template.channel,
        // The version current now is the one it renders, whenever it is sent.
        templateVersionId: template.versionId,
        templateBuildId: template.buildId,
        journeyData: input.journeyData ?? null,
        ...cause,
      })
      .onConflictDoNothing()
      .returning({ id: messages.id });
  } catch (err) {
    if (errorCode(err) === FOREIGN_KEY_VIOLATION) throw new NotFound("No user with this id in this project.");
    throw err;
  }
  if (!inserted.length) {
    const [existing] = await ctx.db
      .select({ id: messages.id, state: messages.state, reason: messages.reason })
      .from(messages)
      .where(
        and(
          eq(messages.projectId, ctx.projectId),
          byBroadcast
            ? and(eq(messages.broadcastId, cause.broadcastId!), eq(messages.userId, input.userId))
            : and(
                eq(messages.journeyEntryId, cause.journeyEntryId!),
                eq(messages.journeyStepKey, cause.journeyStepKey!),
              ),
        ),
      );
    if (!existing) throw new Error("A message's cause conflicted but its row is not visible.");
    return { ...existing, created: false };
  }
  const id = inserted[0]!.id;
  const [facts] = await loadSendFacts(ctx, { keys: [{ projectId: ctx.projectId, id }] });
  const skip = decideSkip(facts!);
  if (skip) {
    await finishMessages(ctx, [{ id, state: "skipped", reason: skip }]);
    return { id, state: "skipped", reason: skip, created: true };
  }
  const until =
    !facts!.transactional && facts!.quiet_hours ? quietUntil(new Date(), facts!.timezone, facts!.quiet_hours) : null;
  if (until)
    await ctx.db
      .update(messages)
      .set({ nextAttemptAt: until })
      .where(and(eq(messages.projectId, ctx.projectId), eq(messages.id, id)));
  await ctx.db.execute(sql`select pg_notify(${MESSAGES_CHANNEL}, '')`);
  return { id, state: "queued", reason: null, created: true };
}
