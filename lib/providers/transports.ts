import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import nodemailer, { type Transporter } from "nodemailer";
import { Agent, request } from "undici";
import { allowList, forbiddenAddress } from "@/lib/destinations/allowed-hosts";
import { guardedLookup } from "@/lib/destinations/http-agent";
import { appendToOutbox, outboxEnabled } from "@/lib/mail/outbox";
import { mailFrom } from "@/lib/mail/send-mail";

/** What one attempt at a provider came to: accepted (with its id), worth retrying, or refused for good. */
export type SendResult =
  | { ok: true; providerMessageId: string | null }
  | { ok: false; transient: boolean; reason: string }
  /** The message's broadcast was cancelled while it waited for a send slot: nothing was sent. */
  | { ok: false; cancelled: true };

export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Record<string, string>;
  /** The envelope sender (MAIL FROM) when it differs from `from`: the message's bounce address. */
  envelopeFrom?: string;
}

export interface OutgoingSms {
  to: string;
  body: string;
}

/** How long one provider call may take before it counts as a transient failure. */
const TIMEOUT_MS = 15_000;

/** SMTP connections per provider per process: pooled, each carrying any number of messages. */
export const SMTP_CONNECTIONS = Number(process.env.MESSAGES_SMTP_CONNECTIONS ?? 5);

/** An SMTP answer or connection error as a SendResult: 4xx, timeouts and dropped connections are transient. */
export function smtpFailure(err: unknown): SendResult {
  const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
  const reason = (e.response ?? e.message ?? String(err)).slice(0, 500);
  if (typeof e.responseCode === "number") return { ok: false, transient: e.responseCode < 500, reason };
  const permanent = e.code === "EAUTH" || e.code === "EENVELOPE" || e.code === "RELAY_FORBIDDEN_ADDRESS";
  return { ok: false, transient: !permanent, reason };
}

/**
 * Resolves an SMTP host the way destinations connect: every address it resolves to must be one Relay may
 * reach (DESTINATIONS_ALLOW_HOSTS lists private ones), and the connection goes to the checked address,
 * so DNS cannot rebind it between the check and the connect.
 */
export async function checkedAddress(host: string): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, "");
  const addresses = isIP(bare) ? [{ address: bare }] : await dnsLookup(bare, { all: true });
  for (const a of addresses) {
    const why = forbiddenAddress(a.address, allowList());
    if (!why) return a.address;
  }
  const err = new Error(`refused to connect: ${host} resolves only to forbidden addresses`);
  (err as Error & { code: string }).code = "RELAY_FORBIDDEN_ADDRESS";
  throw err;
}

const pools = new Map<string, Promise<Transporter>>();

/** A pooled nodemailer transport per key (a provider's id and version, or the deployment's). */
function pooled(key: string, make: () => Promise<Transporter>): Promise<Transporter> {
  let t = pools.get(key);
  if (!t) {
    t = make();
    t.catch(() => pools.delete(key));
    pools.set(key, t);
  }
  return t;
}

/** Sends over a provider's SMTP URL (its host checked) or, with `trusted`, the deployment's SMTP_URL. */
export async function sendSmtp(
  key: string,
  smtpUrl: string,
  mail: OutgoingEmail,
  opts: { trusted: boolean },
): Promise<SendResult> {
  try {
    const transport = await pooled(key, async () => {
      const url = new URL(smtpUrl);
      const host = url.hostname;
      const secure = url.protocol === "smtps:";
      const address = opts.trusted ? host : await checkedAddress(host);
      return nodemailer.createTransport({
        pool: true,
        maxConnections: SMTP_CONNECTIONS,
        maxMessages: Number.POSITIVE_INFINITY,
        host: address,
        port: Number(url.port || (secure ? 465 : 587)),
        secure,
        auth: url.username
          ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
          : undefined,
        tls: { servername: isIP(host) ? undefined : host },
        connectionTimeout: TIMEOUT_MS,
        greetingTimeout: TIMEOUT_MS,
        socketTimeout: TIMEOUT_MS,
        ignoreTLS: url.searchParams.get("tls") === "none",
      });
    });
    const info = await transport.sendMail({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text || undefined,
      html: mail.html || undefined,
      messageId: mail.messageId,
      headers: mail.headers,
      ...(mail.envelopeFrom ? { envelope: { from: mail.envelopeFrom, to: mail.to } } : {}),
    });
    return { ok: true, providerMessageId: (info.messageId as string | undefined) ?? mail.messageId };
  } catch (err) {
    return smtpFailure(err);
  }
}

/** The deployment's fallback: SMTP_URL and MAIL_FROM, else (development) the file outbox. */
export async function sendDeploymentEmail(mail: Omit<OutgoingEmail, "from">): Promise<SendResult> {
  const url = process.env.SMTP_URL;
  if (url) return sendSmtp(`deployment:${url}`, url, { ...mail, from: mailFrom() }, { trusted: true });
  if (outboxEnabled()) {
    await appendToOutbox({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    return { ok: true, providerMessageId: mail.messageId };
  }
  return { ok: false, transient: false, reason: "no e-mail provider: add one, or set SMTP_URL on the server" };
}

export const TWILIO_API_BASE = "https://api.twilio.com";

let agent: Agent | undefined;
function smsAgent(): Agent {
  agent ??= new Agent({
    connections: 16,
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
      body: new URLSearchParams({ To: sms.to, From: p.from, Body: sms.body }).toString(),
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
