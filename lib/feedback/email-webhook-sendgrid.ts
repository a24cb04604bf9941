import { createPublicKey, verify } from "node:crypto";
import { Invalid, Unauthorized } from "@/lib/http/errors";
import {
  assertFresh,
  dateOf,
  parseJson,
  relayIdFromMessageId,
  str,
  type WebhookReport,
  type WebhookRequest,
} from "./email-webhook-common";

/** SendGrid's verification key as its settings page shows it (base64 DER SubjectPublicKeyInfo, P-256). */
export function sendgridKey(publicKey: string) {
  const key = createPublicKey({
    key: Buffer.from(publicKey.replace(/\s+/g, ""), "base64"),
    format: "der",
    type: "spki",
  });
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1")
    throw new Error("not a P-256 public key");
  return key;
}

/**
 * SendGrid's signed Event Webhook: ECDSA-SHA256 over the timestamp header followed by the raw body, the
 * signature base64 DER. The body is a JSON array of events; `sg_event_id` identifies each.
 */
export function sendgridReports(publicKey: string, req: WebhookRequest): WebhookReport[] {
  const signature = req.headers.get("x-twilio-email-event-webhook-signature");
  const timestamp = req.headers.get("x-twilio-email-event-webhook-timestamp");
  if (!signature || !timestamp) throw new Unauthorized("The SendGrid signature headers are missing.");
  let ok = false;
  try {
    ok = verify(
      "sha256",
      Buffer.concat([Buffer.from(timestamp, "utf8"), req.body]),
      sendgridKey(publicKey),
      Buffer.from(signature, "base64"),
    );
  } catch {
    ok = false;
  }
  if (!ok) throw new Unauthorized("The SendGrid signature does not verify.");
  assertFresh(Number(timestamp));
  const events = parseJson(req.body);
  if (!Array.isArray(events)) throw new Invalid("A SendGrid webhook body is a JSON array of events.");
  if (events.length > 1000) throw new Invalid("At most 1,000 events in one post.");
  const out: WebhookReport[] = [];
  for (const e of events as Record<string, unknown>[]) {
    if (!e || typeof e !== "object") continue;
    const id = str(e.sg_event_id);
    const base = {
      source: "sendgrid" as const,
      dedupeKey: `sendgrid:${id}`,
      relayMessageId: relayIdFromMessageId(e["smtp-id"]),
      at: dateOf(e.timestamp),
      address: str(e.email),
      detail: { event: str(e.event), sg_message_id: str(e.sg_message_id) },
    };
    if (!id) continue;
    const reason = str(e.reason) ?? str(e.response);
    if (e.event === "delivered") out.push({ ...base, kind: "delivered" });
    else if (e.event === "deferred") out.push({ ...base, kind: "deferred", detail: { ...base.detail, reason } });
    else if (e.event === "bounce")
      // `type: blocked` is SendGrid's soft bounce (the receiver refused for now); `bounce` is permanent.
      out.push({
        ...base,
        kind: "bounced",
        bounce: { type: e.type === "blocked" ? "soft" : "hard", code: str(e.status), reason },
      });
    else if (e.event === "spamreport") out.push({ ...base, kind: "complained" });
  }
  return out;
}
