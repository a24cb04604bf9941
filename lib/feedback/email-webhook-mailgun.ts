import { createHmac, timingSafeEqual } from "node:crypto";
import { Invalid, Unauthorized } from "@/lib/http/errors";
import type { Parsed, WebhookReport, WebhookRequest } from "./email-webhook-common";
import { assertFresh, dateOf, parseJson, relayIdFromMessageId, str } from "./email-webhook-common";

/**
 * Mailgun's webhook: `signature.signature` is HMAC-SHA256 (hex) of `timestamp` + `token` under the
 * account's webhook signing key; one event per post in `event-data`, identified by its `id`.
 */
export function mailgunReports(signingKey: string, req: WebhookRequest): WebhookReport[] {
  const body = parseJson(req.body) as Parsed | undefined;
  const sig = body && typeof body === "object" ? body.signature : undefined;
  const timestamp = typeof sig?.timestamp === "string" ? sig.timestamp : String(sig?.timestamp ?? "");
  const token = typeof sig?.token === "string" ? sig.token : "";
  const given = typeof sig?.signature === "string" ? sig.signature : "";
  const expected = createHmac("sha256", signingKey)
    .update(timestamp + token)
    .digest("hex");
  const ok = /^[0-9a-f]{64}$/i.test(given) && timingSafeEqual(Buffer.from(given.toLowerCase()), Buffer.from(expected));
  if (!ok || !token) throw new Unauthorized("The Mailgun signature does not verify.");
  assertFresh(Number(timestamp));
  const e = body!["event-data"];
  if (!e || typeof e !== "object") throw new Invalid("A Mailgun webhook body has `event-data`.");
  const id = str(e.id);
  if (!id) return [];
  const status = e["delivery-status"] && typeof e["delivery-status"] === "object" ? e["delivery-status"] : {};
  const base = {
    source: "mailgun" as const,
    dedupeKey: `mailgun:${id}`,
    relayMessageId: relayIdFromMessageId(e.message?.headers?.["message-id"]),
    at: dateOf(e.timestamp),
    address: str(e.recipient),
    detail: { event: str(e.event) },
  };
  const code = status.code !== undefined && status.code !== null ? String(status.code).slice(0, 20) : null;
  const reason = str(status.description) ?? str(status.message) ?? str(e.reason);
  if (e.event === "delivered") return [{ ...base, kind: "delivered" }];
  if (e.event === "complained") return [{ ...base, kind: "complained" }];
  if (e.event === "failed")
    // A temporary failure is Mailgun retrying: deferred, not a bounce.
    return e.severity === "permanent"
      ? [{ ...base, kind: "bounced", bounce: { type: "hard", code, reason } }]
      : [{ ...base, kind: "deferred", detail: { ...base.detail, code, reason } }];
  return [];
}
