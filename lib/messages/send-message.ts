import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { uuidv7s } from "@/lib/db/uuidv7";
import { isEmailAddress } from "@/lib/http/email-address";
import { Conflict, Invalid, NotFound, RuleBroken } from "@/lib/http/errors";
import { previewUserId } from "@/lib/templates/preview-template";
import { replayedAnswer, type SentAnswer } from "./idempotency-keys";
import { finishMessages } from "./finish-message";
import { queueApiMessage } from "./queue-api-message";
import { deferMessage } from "./queue-message";
import { quietUntil } from "./quiet-hours";
import type { SendMessageBody } from "./schemas";
import { decideSkip } from "./send-facts";

const E164 = /^\+[1-9][0-9]{6,14}$/;

/**
 * The transactional send API: one message of a template to one user, its row durable when this returns.
 * The cause is a fresh request id, or, with an `Idempotency-Key`, the id the key was first taken with: the
 * key's row and the message are written in one statement of one transaction (queueApiMessage), and a retry
 * with the same key and body answers the first answer (`replayed`) and sends nothing. A non-transactional
 * template obeys every rule a send obeys: the decision is decideSkip's, on the facts queueMessage reads,
 * and quiet hours defer it as they do there.
 */
export async function sendMessage(
  ctx: ProjectContext,
  input: { body: SendMessageBody; idempotencyKey?: string },
): Promise<{ answer: SentAnswer; replayed: boolean }> {
  const { body, idempotencyKey } = input;
  const [requestId, id] = uuidv7s(2) as [string, string];
  const hash = idempotencyKey ? requestHash(body) : "";
  return withTransaction(ctx.db, async (tx) => {
    const t = { ...ctx, db: tx };
    const replay = async () =>
      idempotencyKey ? await replayedAnswer(t, { key: idempotencyKey, requestHash: hash }) : null;
    // By identifiers, resolved first: a user gone since a key's first request still gets its replay.
    let userId: string;
    try {
      userId = await previewUserId(t, body);
    } catch (err) {
      const held = await replay();
      if (held) return { answer: held, replayed: true };
      throw err;
    }
    const notBefore = body.send_at && new Date(body.send_at).getTime() > Date.now() ? new Date(body.send_at) : null;
    const row = await queueApiMessage(t, {
      id,
      requestId,
      userId,
      template: body.template_id ? { id: body.template_id } : { name: body.template! },
      data: body.data ?? {},
      ...(body.to !== undefined ? { to: body.to } : {}),
      toValid: {
        email: body.to !== undefined && isEmailAddress(body.to),
        sms: body.to !== undefined && E164.test(body.to),
      },
      notBefore,
      ...(idempotencyKey ? { key: { key: idempotencyKey, requestHash: hash } } : {}),
    });
    if (!row.claimed) {
      const held = await replay();
      // Past its hours and swept between the two statements: rare enough to ask for a retry rather than loop.
      if (!held) throw new Conflict("This Idempotency-Key was just released; send the request again.");
      return { answer: held, replayed: true };
    }
    if (!row.template)
      throw new NotFound("No such template in this project.", {
        errors: [{ path: body.template_id ? "template_id" : "template", message: "no such template" }],
      });
    if (!row.inserted) throw refusedTo(row.template);
    const facts = row.facts!;
    const skip = decideSkip(facts);
    if (skip) {
      await finishMessages(t, [{ id, state: "skipped", reason: skip }]);
      const answer = { id, state: "skipped" };
      if (idempotencyKey)
        await tx.execute(sql`update idempotency_keys set answer = ${JSON.stringify(answer)}::jsonb
          where project_id = ${ctx.projectId}::uuid and key = ${idempotencyKey}`);
      return { answer, replayed: false };
    }
    const until =
      !facts.transactional && facts.quiet_hours
        ? quietUntil(notBefore ?? new Date(), facts.timezone, facts.quiet_hours)
        : null;
    if (until) await deferMessage(t, { id, until });
    return { answer: { id, state: "queued" }, replayed: false };
  });
}

/** Why a `to` was refused: only transactional templates take one, and it must be of the template's channel. */
function refusedTo(template: { channel: "email" | "sms"; transactional: boolean }) {
  if (!template.transactional)
    return new RuleBroken(
      "`to` may only be given for a transactional template; this one sends to the user's own address.",
      {
        errors: [{ path: "to", message: "only for transactional templates" }],
      },
    );
  const email = template.channel === "email";
  return new Invalid(`"to" must be ${email ? "an e-mail address" : "an E.164 phone number"}.`, {
    errors: [{ path: "to", message: email ? "an e-mail address" : "like +4915112345678" }],
  });
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
