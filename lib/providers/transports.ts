import { Agent, request } from "undici";
import { allowList } from "@/lib/destinations/allowed-hosts";
import { guardedLookup } from "@/lib/destinations/http-agent";
import { appendToOutbox, outboxEnabled } from "@/lib/mail/outbox";
import { mailFrom } from "@/lib/mail/send-mail";
import type { OutgoingEmail } from "./compose-mail";
import { sendOnComposeThread } from "./compose-threads";
import { type DkimKey, deploymentDkim } from "./dkim";
import type { SendResult } from "./send-result";
import { SMTP_CONNECTIONS, SMTP_TIMEOUT_MS } from "./smtp-pool";

export type { SendResult };

export interface OutgoingSms {
  to: string;
  body: string;
  /** Where Twilio posts the message's delivery status (lib/feedback/record-twilio-status.ts). */
  statusCallback?: string;
}

/** How long one provider call may take before it counts as a transient failure. */
const TIMEOUT_MS = SMTP_TIMEOUT_MS;

export { SMTP_CONNECTIONS };

/**
 * Sends over a provider's SMTP URL (its host checked for every connection) or, with `trusted`, the
 * deployment's SMTP_URL. `pool` names the pool (owner and version); `dkim` signs every message. On a
 * compose thread when the process runs them (compose-threads.ts), else here.
 */
export function sendSmtp(
  pool: { owner: string; version: string },
  smtpUrl: string,
  mail: OutgoingEmail,
  opts: { trusted: boolean; dkim?: DkimKey | null },
): Promise<SendResult> {
  return sendOnComposeThread({ pool: { ...pool, smtpUrl, trusted: opts.trusted }, mail, dkim: opts.dkim ?? null });
}

/**
 * Whether projects without an e-mail provider may send through the deployment's SMTP_URL: in
 * development, yes; in production only with DEPLOYMENT_SMTP_FOR_PROJECTS=true, since otherwise anyone who
 * can make a project could mail any HTML from the operator's domain.
 */
export function deploymentSmtpForProjects(): boolean {
  return process.env.NODE_ENV !== "production" || process.env.DEPLOYMENT_SMTP_FOR_PROJECTS === "true";
}

/** The deployment's fallback: SMTP_URL and MAIL_FROM (when offered to projects), else (development) the file outbox. */
export async function sendDeploymentEmail(mail: Omit<OutgoingEmail, "from">): Promise<SendResult> {
  const url = process.env.SMTP_URL;
  if (url && deploymentSmtpForProjects())
    return sendSmtp(
      { owner: "deployment", version: url },
      url,
      { ...mail, from: mailFrom() },
      {
        trusted: true,
        dkim: deploymentDkim(),
      },
    );
  if (outboxEnabled()) {
    await appendToOutbox({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    return { ok: true, providerMessageId: mail.messageId };
  }
  return {
    ok: false,
    transient: false,
    reason: url
      ? "no e-mail provider in this project (the deployment's SMTP_URL serves projects only with DEPLOYMENT_SMTP_FOR_PROJECTS=true)"
      : "no e-mail provider: add one, or set SMTP_URL on the server",
  };
}

export const TWILIO_API_BASE = "https://api.twilio.com";

/** Keep-alive HTTP connections per origin for SMS (undici sets TCP_NODELAY on each). */
export const SMS_CONNECTIONS = Number(process.env.MESSAGES_SMS_CONNECTIONS ?? 16);

let agent: Agent | undefined;
function smsAgent(): Agent {
  agent ??= new Agent({
    connections: SMS_CONNECTIONS,
    keepAliveTimeout: 30_000,
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
    connect: { timeout: TIMEOUT_MS, lookup: guardedLookup(allowList()) },
  });
  return agent;
}

/**
 * Sends an SMS through Twilio's Messages API (or a service speaking it at `apiBase`): 201 with the
 * message's `sid` is accepted; 429 and 5xx are transient; another answer is refused with its message.
 */
export async function sendTwilio(
  p: { apiBase: string; accountSid: string; authToken: string; from: string },
  sms: OutgoingSms,
): Promise<SendResult> {
  const url = `${p.apiBase.replace(/\/+$/, "")}/2010-04-01/Accounts/${encodeURIComponent(p.accountSid)}/Messages.json`;
  try {
    const res = await request(url, {
      method: "POST",
      dispatcher: smsAgent(),
      headers: {
        authorization: `Basic ${Buffer.from(`${p.accountSid}:${p.authToken}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        To: sms.to,
        From: p.from,
        Body: sms.body,
        ...(sms.statusCallback ? { StatusCallback: sms.statusCallback } : {}),
      }).toString(),
      maxRedirections: 0,
    } as Parameters<typeof request>[1]);
    const text = (await res.body.text()).slice(0, 4096);
    let body: { sid?: string; message?: string; code?: number } = {};
    try {
      body = JSON.parse(text);
    } catch {}
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, providerMessageId: body.sid ?? null };
    const reason = `${res.statusCode}${body.code ? ` (${body.code})` : ""}: ${body.message ?? text.slice(0, 300)}`;
    return { ok: false, transient: res.statusCode === 429 || res.statusCode >= 500, reason };
  } catch (err) {
    return {
      ok: false,
      transient: (err as { code?: string }).code !== "RELAY_FORBIDDEN_ADDRESS",
      reason: String((err as Error).message ?? err).slice(0, 500),
    };
  }
}
