import { createVerify, type KeyObject, X509Certificate } from "node:crypto";
import { request } from "undici";
import { destinationAgent } from "@/lib/destinations/http-agent";
import { Invalid, Unauthorized, Unavailable } from "@/lib/http/errors";
import { log } from "@/lib/observability/logger";
import type { Parsed, WebhookReport, WebhookRequest } from "./email-webhook-common";
import { assertFresh, dateOf, parseJson, relayIdFromMessageId, str } from "./email-webhook-common";

/** SNS's own hosts only: a certificate or confirmation URL anywhere else is never fetched. */
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
const CERT_BYTES = 16 * 1024;
const certs = new Map<string, Promise<KeyObject>>();

function snsUrl(value: unknown, what: string): URL {
  let url: URL | null = null;
  try {
    url = typeof value === "string" ? new URL(value) : null;
  } catch {}
  if (url?.protocol !== "https:" || !SNS_HOST.test(url.hostname) || url.port)
    throw new Unauthorized(`The ${what} is not an https URL on an sns.<region>.amazonaws.com host.`);
  return url;
}

/**
 * GETs an SNS URL. `SNS_TEST_ENDPOINT` (tests only) sends the request to that origin instead, keeping
 * the path and query, since tests cannot reach AWS.
 */
async function snsGet(url: URL, limit: number): Promise<string> {
  const test = process.env.SNS_TEST_ENDPOINT;
  const target = test ? new URL(url.pathname + url.search, test).toString() : url.toString();
  const res = await request(target, { method: "GET", dispatcher: destinationAgent(), maxRedirections: 0 } as never);
  const text = (await res.body.text()).slice(0, limit);
  if (res.statusCode !== 200) throw new Unavailable(`SNS answered ${res.statusCode}; SNS retries the delivery.`);
  return text;
}

/** The signing certificate's key, fetched once per URL (`SNS_TEST_CERTIFICATE_PEM` in tests instead). */
function signingKey(certUrl: URL): Promise<KeyObject> {
  const pem = process.env.SNS_TEST_CERTIFICATE_PEM;
  if (pem) return Promise.resolve(new X509Certificate(pem.replace(/\\n/g, "\n")).publicKey);
  const key = certUrl.toString();
  let hit = certs.get(key);
  if (!hit) {
    hit = snsGet(certUrl, CERT_BYTES).then((text) => new X509Certificate(text).publicKey);
    hit.catch(() => certs.delete(key));
    certs.set(key, hit);
  }
  return hit;
}

/** The string SNS signs: the named fields, each as `name\nvalue\n`, in this order, absent ones left out. */
export function snsCanonical(m: Record<string, unknown>): string {
  const fields =
    m.Type === "Notification"
      ? ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"]
      : ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"];
  return fields
    .filter((f) => typeof m[f] === "string")
    .map((f) => `${f}\n${m[f]}\n`)
    .join("");
}

/**
 * Amazon SES notifications through an SNS topic's HTTPS subscription: the SNS signature (version 1:
 * SHA1, 2: SHA256, RSA) checked with the certificate at SigningCertURL; a SubscriptionConfirmation is
 * confirmed by fetching its SubscribeURL (same host rule). Each notification is one report, keyed by
 * SNS's MessageId (a retried delivery has the same one).
 */
export async function sesReports(req: WebhookRequest): Promise<WebhookReport[]> {
  const m = parseJson(req.body) as Record<string, unknown> | undefined;
  if (!m || typeof m !== "object" || Array.isArray(m)) throw new Invalid("An SNS message is a JSON object.");
  const algorithm = m.SignatureVersion === "1" ? "RSA-SHA1" : m.SignatureVersion === "2" ? "RSA-SHA256" : null;
  if (!algorithm || typeof m.Signature !== "string") throw new Unauthorized("The SNS message is not signed.");
  const key = await signingKey(snsUrl(m.SigningCertURL, "SigningCertURL"));
  const ok = createVerify(algorithm).update(snsCanonical(m), "utf8").verify(key, m.Signature, "base64");
  if (!ok) throw new Unauthorized("The SNS signature does not verify.");
  assertFresh(Date.parse(String(m.Timestamp)) / 1000);
  if (m.Type === "SubscriptionConfirmation") {
    await snsGet(snsUrl(m.SubscribeURL, "SubscribeURL"), 64 * 1024);
    log.info({ topic: m.TopicArn }, "SNS subscription confirmed");
    return [];
  }
  if (m.Type !== "Notification") return [];
  const n = typeof m.Message === "string" ? (parseJson(Buffer.from(m.Message)) as Parsed) : undefined;
  if (!n || typeof n !== "object") return [];
  const type = n.notificationType ?? n.eventType;
  const mail = n.mail ?? {};
  const base = {
    source: "ses" as const,
    dedupeKey: `ses:${String(m.MessageId).slice(0, 100)}`,
    relayMessageId: relayIdFromMessageId(mail.commonHeaders?.messageId) ?? relayIdFromMessageId(mail.messageId),
    detail: { type: str(type), ses_message_id: str(mail.messageId) },
  };
  if (type === "Delivery")
    return [
      { ...base, kind: "delivered", at: dateOf(n.delivery?.timestamp), address: str(n.delivery?.recipients?.[0]) },
    ];
  if (type === "Complaint")
    return [
      {
        ...base,
        kind: "complained",
        at: dateOf(n.complaint?.timestamp),
        address: str(n.complaint?.complainedRecipients?.[0]?.emailAddress),
      },
    ];
  if (type === "DeliveryDelay") return [{ ...base, kind: "deferred", at: dateOf(n.deliveryDelay?.timestamp) }];
  if (type !== "Bounce") return [];
  const r = n.bounce?.bouncedRecipients?.[0] ?? {};
  return [
    {
      ...base,
      kind: "bounced",
      at: dateOf(n.bounce?.timestamp),
      address: str(r.emailAddress),
      // Permanent is hard; Transient and Undetermined are soft (the bounce policy decides).
      bounce: {
        type: n.bounce?.bounceType === "Permanent" ? "hard" : "soft",
        code: str(r.status),
        reason: str(r.diagnosticCode) ?? str(n.bounce?.bounceSubType),
      },
    },
  ];
}
