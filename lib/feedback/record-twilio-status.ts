import { sql } from "drizzle-orm";
import { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { Unauthorized } from "@/lib/http/errors";
import { loadProvider } from "@/lib/providers/load-provider";
import { isSignedByTwilio, type TwilioRequest } from "@/lib/subscriptions/twilio-signature";
import { type FeedbackOutcome, recordFeedback } from "./record-feedback";
import type { FeedbackReport } from "./report";

/** Error codes that say the number cannot (or must not) get SMS: the address is suppressed at once. */
const CARRIER_CODES = new Set(["21610", "30004", "30005", "30006"]);

/**
 * Twilio's status callback for an SMS Relay sent: the signature must verify with the auth token of the
 * project's SMS provider (the account that sent it), else 401 and nothing read. `delivered`, `undelivered`
 * and `failed` become reports about the message whose provider id is the MessageSid; the other statuses
 * (queued, sent, …) say nothing about the recipient and are ignored.
 */
export async function recordTwilioStatus(
  ctx: ProjectContext,
  input: TwilioRequest,
): Promise<FeedbackOutcome | "ignored"> {
  const provider = z.uuid().safeParse(ctx.projectId).success
    ? await loadProvider(ctx, { projectId: ctx.projectId, channel: "sms" })
    : null;
  const token = provider?.kind === "twilio" ? provider.secret : null;
  // No provider, no token and a wrong signature answer alike: the endpoint says nothing about the project.
  if (!token || !isSignedByTwilio(token, input))
    throw new Unauthorized("The X-Twilio-Signature header does not match.");
  const get = (k: string) => input.params.find(([name]) => name === k)?.[1] ?? "";
  const status = get("MessageStatus") || get("SmsStatus");
  const sid = get("MessageSid") || get("SmsSid");
  if (!sid || !["delivered", "undelivered", "failed"].includes(status)) return "ignored";
  const [m] = await queryRows<{ id: string }>(
    ctx.db,
    sql`select id from messages where project_id = ${ctx.projectId}::uuid and provider_message_id = ${sid}
      and channel = 'sms' limit 1`,
  );
  if (!m) return "unknown_message";
  const code = get("ErrorCode") || null;
  const carrier = code !== null && CARRIER_CODES.has(code);
  const report: FeedbackReport = {
    messageId: m.id,
    source: "twilio",
    // Twilio sends each final status of a message once (and retries it): the status is the report's identity.
    dedupeKey: `twilio:${sid}:${status}`,
    kind: status === "delivered" ? "delivered" : "bounced",
    address: get("To") || null,
    ...(status === "delivered"
      ? {}
      : {
          bounce: {
            // `failed` never reached the carrier; `undelivered` did and was refused: soft unless the code says the number is gone.
            type: status === "failed" || carrier ? ("hard" as const) : ("soft" as const),
            code,
            reason: get("ErrorMessage") || (code ? `Twilio error ${code}` : status),
          },
          carrier,
        }),
    detail: { message_sid: sid, status },
  };
  const [outcome] = await recordFeedback(ctx, { reports: [report] });
  return outcome!;
}
