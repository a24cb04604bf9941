import { Invalid, Unauthorized } from "@/lib/http/errors";
import {
  dateOf,
  parseJson,
  relayIdAsIs,
  sameSecret,
  str,
  type Parsed,
  type WebhookReport,
  type WebhookRequest,
} from "./email-webhook-common";

/** Postmark bounce types that say the address will not take mail (others are soft). */
const HARD = new Set(["HardBounce", "BadEmailAddress", "ManuallyDeactivated", "Unsubscribe", "AddressChange"]);

/**
 * Postmark's webhook, protected by HTTP basic auth set in its webhook URL (compared in constant time).
 * One record per post; the message is named by the `relay-message-id` metadata Relay sets on each mail.
 */
export function postmarkReports(auth: { username: string; password: string }, req: WebhookRequest): WebhookReport[] {
  const header = req.headers.get("authorization") ?? "";
  const basic = /^Basic\s+(.+)$/i.exec(header)?.[1];
  const decoded = basic ? Buffer.from(basic, "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  const user = colon >= 0 ? decoded.slice(0, colon) : "";
  const pass = colon >= 0 ? decoded.slice(colon + 1) : "";
  // Both compared, always: a wrong user name takes as long as a wrong password.
  const userOk = sameSecret(user, auth.username);
  const passOk = sameSecret(pass, auth.password);
  if (!basic || !userOk || !passOk) throw new Unauthorized("The Postmark webhook's credentials do not match.");
  const r = parseJson(req.body) as Parsed | undefined;
  if (!r || typeof r !== "object" || Array.isArray(r)) throw new Invalid("A Postmark webhook body is a JSON object.");
  const relayMessageId = relayIdAsIs(r.Metadata?.["relay-message-id"]);
  const detail = { record_type: str(r.RecordType), postmark_message_id: str(r.MessageID) };
  if (r.RecordType === "Delivery")
    return [
      {
        source: "postmark",
        kind: "delivered",
        dedupeKey: `postmark:delivery:${str(r.MessageID)}:${str(r.Recipient)}`,
        relayMessageId,
        at: dateOf(r.DeliveredAt),
        address: str(r.Recipient),
        detail,
      },
    ];
  if (r.RecordType !== "Bounce" && r.RecordType !== "SpamComplaint") return [];
  const base = {
    source: "postmark" as const,
    dedupeKey: `postmark:bounce:${String(r.ID ?? "").slice(0, 40)}`,
    relayMessageId,
    at: dateOf(r.BouncedAt),
    address: str(r.Email),
    detail,
  };
  if (r.ID === undefined || r.ID === null) return [];
  if (r.RecordType === "SpamComplaint" || r.Type === "SpamComplaint") return [{ ...base, kind: "complained" }];
  if (r.Type === "Transient") return [{ ...base, kind: "deferred" }];
  const code = r.TypeCode !== undefined ? String(r.TypeCode).slice(0, 20) : null;
  const reason = str(r.Details) ?? str(r.Description);
  return [{ ...base, kind: "bounced", bounce: { type: HARD.has(String(r.Type)) ? "hard" : "soft", code, reason } }];
}
