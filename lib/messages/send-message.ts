import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { uuidv7s } from "@/lib/db/uuidv7";
import { isEmailAddress } from "@/lib/http/email-address";
import { Invalid, NotFound, RuleBroken } from "@/lib/http/errors";
import { previewUserId } from "@/lib/templates/preview-template";
import { claimIdempotencyKey, type SentAnswer } from "./claim-idempotency-key";
import { notifySenders, queueMessage } from "./queue-message";
import type { SendMessageBody } from "./schemas";

const E164 = /^\+[1-9][0-9]{6,14}$/;

/**
 * The transactional send API: one message of a template to one user through `queueMessage` (so a
 * non-transactional template obeys every rule the one send verb checks, as every send does), its
 * row durable when this returns. The cause is a fresh request id, or, with an `Idempotency-Key`, the id the
 * key was first taken with: the key's row and the message are written in one transaction, and a retry with
 * the same key and body answers the first answer (`replayed`) and sends nothing.
 */
export async function sendMessage(
  ctx: ProjectContext,
  input: { body: SendMessageBody; idempotencyKey?: string },
): Promise<{ answer: SentAnswer; replayed: boolean }> {
  const { body, idempotencyKey } = input;
  const [requestId] = uuidv7s(1) as [string];
  return withTransaction(ctx.db, async (tx) => {
    const t = { ...ctx, db: tx };
    if (idempotencyKey) {
      const held = await claimIdempotencyKey(t, { key: idempotencyKey, requestHash: requestHash(body), requestId });
      if (held) return { answer: held.replay, replayed: true };
    }
    const template = await findTemplate(t, body);
    if (body.to !== undefined) {
      if (!template.transactional)
        throw new RuleBroken(
          "`to` may only be given for a transactional template; this one sends to the user's own address.",
          {
            errors: [{ path: "to", message: "only for transactional templates" }],
          },
        );
      if (template.channel === "email" ? !isEmailAddress(body.to) : !E164.test(body.to))
        throw new Invalid(
          `"to" must be ${template.channel === "email" ? "an e-mail address" : "an E.164 phone number"}.`,
          {
            errors: [
              { path: "to", message: template.channel === "email" ? "an e-mail address" : "like +4915112345678" },
            ],
          },
        );
    }
    const userId = await previewUserId(t, body);
    const queued = await queueMessage(t, {
      templateId: template.id,
      template,
      callerNotifies: true,
      userId,
      cause: { requestId },
      data: body.data ?? {},
      ...(body.to !== undefined ? { to: body.to } : {}),
      ...(body.send_at ? { notBefore: new Date(body.send_at) } : {}),
    });
    const answer = { id: queued.id, state: queued.state };
    // The key's answer and the senders' wake-up in one statement: a round trip fewer on every request.
    const wake = queued.state === "queued" ? notifySenders : sql`null`;
    if (idempotencyKey)
      await tx.execute(sql`with answered as (
          update idempotency_keys set answer = ${JSON.stringify(answer)}::jsonb
          where project_id = ${ctx.projectId}::uuid and key = ${idempotencyKey} returning 1)
        select ${wake}, (select count(*) from answered)`);
    else if (queued.state === "queued") await tx.execute(sql`select ${notifySenders}`);
    return { answer, replayed: false };
  });
}

async function findTemplate(ctx: ProjectContext, body: SendMessageBody) {
  const [template] = await ctx.db
    .select({
      id: messageTemplates.id,
      channel: messageTemplates.channel,
      transactional: messageTemplates.transactional,
      versionId: messageTemplates.versionId,
      buildId: messageTemplates.buildId,
    })
    .from(messageTemplates)
    .where(
      and(
        eq(messageTemplates.projectId, ctx.projectId),
        body.template_id
          ? eq(messageTemplates.id, body.template_id)
          : sql`lower(${messageTemplates.name}) = lower(${body.template!})`,
      ),
    );
  if (!template)
    throw new NotFound("No such template in this project.", {
      errors: [{ path: body.template_id ? "template_id" : "template", message: "no such template" }],
    });
  return template;
}

/** SHA-256 of the body as JSON with its object keys sorted: the same request whatever the key order. */
function requestHash(body: SendMessageBody): string {
  return createHash("sha256").update(canonical(body)).digest("hex");
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}
