import { and, eq, sql } from "drizzle-orm";
import { messages, messageTemplates, type MessageState } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { errorCode } from "@/lib/db/errors";
import { queryRows } from "@/lib/db/sql";
import { NotFound } from "@/lib/http/errors";
import { finishMessages } from "./finish-message";
import { MESSAGES_CHANNEL } from "./notify";
import { quietUntil } from "./quiet-hours";
import { decisionFactsOf } from "./decision-facts";
import { type DecisionFacts, decideSkip } from "./send-facts";

export interface QueueMessageInput {
  templateId: string;
  userId: string;
  /** A journey step, a broadcast's recipient, or a send API request (its id: fresh, or its idempotency key's). */
  cause: { entryId: string; stepKey: string } | { broadcastId: string } | { requestId: string };
  /** The entry's context: `journey.<key>` in templates. */
  journeyData?: Record<string, unknown>;
  /** The send API's `data`: `data.<key>` in templates. */
  data?: Record<string, unknown>;
  /** An address used instead of the user's; the caller checks the template is transactional. */
  to?: string;
  /** Not sent before this time (the send API's `send_at`); quiet hours are read from then. */
  notBefore?: Date;
}

/** The NOTIFY that wakes the senders after commit, as a statement or as part of one. */
export const notifySenders = sql`pg_notify(${MESSAGES_CHANNEL}, '')`;

export interface QueuedMessage {
  id: string;
  state: MessageState;
  reason: string | null;
  created: boolean;
}

const FOREIGN_KEY_VIOLATION = "23503";

/**
 * How a journey step's or a broadcast recipient's message comes to be (the send API's is one statement of
 * its own, queue-api-message.ts, deciding by the same decideSkip), in the caller's transaction: a row
 * keyed by its cause (a second call for the same cause returns that row, `created: false`, and queues
 * nothing). The skips that can be
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
  const c = input.cause;
  const cause = {
    broadcastId: "broadcastId" in c ? c.broadcastId : null,
    journeyEntryId: "entryId" in c ? c.entryId : null,
    journeyStepKey: "entryId" in c ? c.stepKey : null,
    apiRequestId: "requestId" in c ? c.requestId : null,
  };
  const notBefore = input.notBefore && input.notBefore.getTime() > Date.now() ? input.notBefore : null;
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
        data: input.data ?? null,
        toAddress: input.to ?? null,
        ...(notBefore ? { nextAttemptAt: notBefore } : {}),
        ...cause,
      })
      .onConflictDoNothing()
      .returning({ id: messages.id });
  } catch (err) {
    // The template can go between the read above and this insert, as the user can.
    if (errorCode(err) === FOREIGN_KEY_VIOLATION)
      throw new NotFound(
        /message_templates/.test(JSON.stringify((err as { cause?: { detail?: string } }).cause?.detail ?? ""))
          ? "No template with this id in this project."
          : "No user with this id in this project.",
      );
    throw err;
  }
  if (!inserted.length) {
    const [existing] = await ctx.db
      .select({ id: messages.id, state: messages.state, reason: messages.reason })
      .from(messages)
      .where(
        and(
          eq(messages.projectId, ctx.projectId),
          "broadcastId" in c
            ? and(eq(messages.broadcastId, c.broadcastId), eq(messages.userId, input.userId))
            : "requestId" in c
              ? eq(messages.apiRequestId, c.requestId)
              : and(eq(messages.journeyEntryId, c.entryId), eq(messages.journeyStepKey, c.stepKey)),
        ),
      );
    if (!existing) throw new Error("A message's cause conflicted but its row is not visible.");
    return { ...existing, created: false };
  }
  const id = inserted[0]!.id;
  const [facts] = await queryRows<DecisionFacts>(
    ctx.db,
    decisionFactsOf(sql`(select ${ctx.projectId}::uuid as project_id, ${id}::uuid as id, ${input.userId}::uuid as user_id,
      ${input.templateId}::uuid as template_id, ${template.channel}::text as channel, ${input.to ?? null}::text as to_address,
      ${cause.broadcastId}::uuid as broadcast_id)`),
  );
  const skip = decideSkip(facts!);
  if (skip) {
    await finishMessages(ctx, [{ id, state: "skipped", reason: skip }]);
    return { id, state: "skipped", reason: skip, created: true };
  }
  const until =
    !facts!.transactional && facts!.quiet_hours
      ? quietUntil(notBefore ?? new Date(), facts!.timezone, facts!.quiet_hours)
      : null;
  if (until) await deferMessage(ctx, { id, until });
  await ctx.db.execute(sql`select ${notifySenders}`);
  return { id, state: "queued", reason: null, created: true };
}

/** Defers a queued message to `until` (the end of the user's quiet hours). */
export async function deferMessage(ctx: ProjectContext, { id, until }: { id: string; until: Date }) {
  await ctx.db
    .update(messages)
    .set({ nextAttemptAt: until })
    .where(and(eq(messages.projectId, ctx.projectId), eq(messages.id, id)));
}
