import type { AppContext } from "@/lib/access/context";
import type { SendChannel } from "@/db/schema";
import { type LoadedProvider, loadProvider } from "@/lib/providers/load-provider";
import type { RenderedMessage } from "@/lib/templates/render-message";
import type { SkipReason } from "./send-facts";
import { bounceAddress } from "./bounce-address";
import { takeSlot } from "./throttle";
import {
  type SendResult,
  sendDeploymentEmail,
  sendSmtp,
  sendTwilio,
  TWILIO_API_BASE,
} from "@/lib/providers/transports";

/** `<message id@host>`: the same id on every attempt, so receivers can drop a copy a crash re-sent. */
export function messageIdFor(id: string, origin: string): string {
  return `<${id}@${new URL(origin).hostname || "relay.local"}>`;
}

/** Where Twilio reports an SMS's delivery (app/api/webhooks/twilio/[projectID]/status). */
export function twilioStatusCallback(origin: string, projectId: string): string {
  return `${origin.replace(/\/+$/, "")}/api/webhooks/twilio/${projectId}/status`;
}

/**
 * Hands a rendered message to the project's provider for its channel (e-mail falls back to the
 * deployment's SMTP_URL), after the provider's and the broadcast's throttles. Non-transactional e-mail
 * carries the RFC 8058 one-click unsubscribe headers.
 */
export async function sendRendered(
  ctx: AppContext,
  m: {
    id: string;
    project_id: string;
    channel: SendChannel;
    transactional: boolean;
    broadcast_id: string | null;
    broadcast_rate: number | null;
    to: string;
    origin: string;
    rendered: RenderedMessage;
    /**
     * The sending rules read again (an unsubscribe, a suppression, a cancel since the claim), called after
     * a throttle's wait, right before the provider call; none for a test send.
     */
    recheck?: () => Promise<SkipReason | null>;
  },
): Promise<{ provider: LoadedProvider | null; result: SendResult; skipped?: SkipReason }> {
  const provider = await loadProvider(ctx, { projectId: m.project_id, channel: m.channel });
  if (provider && provider.secret === null)
    return {
      provider,
      result: { ok: false, transient: false, reason: "the provider's secret no longer unseals: enter it again" },
    };
  if (!provider && m.channel === "sms")
    return { provider, result: { ok: false, transient: false, reason: "no SMS provider in this project" } };
  const throttled = Boolean(provider?.ratePerSecond) || Boolean(m.broadcast_rate && m.broadcast_id);
  if (provider?.ratePerSecond) await takeSlot(`p:${provider.id}`, provider.ratePerSecond);
  if (m.broadcast_rate && m.broadcast_id) await takeSlot(`b:${m.broadcast_id}`, m.broadcast_rate);
  // A throttled message may wait seconds for its slot while its claim holds it: an unsubscribe or a cancel
  // in that time must still stop it, so the rules are read again before the provider is called. Without a
  // throttle the facts read at claim time are a moment old, and no extra query is spent per message.
  const skipped = throttled && m.recheck ? await m.recheck() : null;
  if (skipped) return { provider, result: { ok: false, cancelled: true }, skipped };
  if (m.channel === "sms") {
    const p = provider!;
    const result = await sendTwilio(
      {
        apiBase: p.config.api_base || TWILIO_API_BASE,
        accountSid: p.config.account_sid ?? "",
        authToken: p.secret!,
        from: p.from,
      },
      { to: m.to, body: m.rendered.text, statusCallback: twilioStatusCallback(m.origin, m.project_id) },
    );
    return { provider, result };
  }
  const headers: Record<string, string> = {};
  if (!m.transactional && m.rendered.unsubscribeUrl) {
    headers["List-Unsubscribe"] = `<${m.rendered.unsubscribeUrl}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  // Postmark's webhooks carry a message's metadata back, not its Message-ID: this names Relay's message.
  headers["X-PM-Metadata-relay-message-id"] = m.id;
  const mail = {
    to: m.to,
    subject: m.rendered.subject,
    text: m.rendered.text,
    html: m.rendered.html,
    messageId: messageIdFor(m.id, m.origin),
    headers,
    // Bounces come back to Relay's inbound listener naming this message (lib/feedback/inbound-smtp.ts).
    envelopeFrom: bounceAddress({ projectId: m.project_id, messageId: m.id }) ?? undefined,
  };
  const result = provider
    ? await sendSmtp(
        { owner: provider.id, version: provider.version },
        provider.secret!,
        { ...mail, from: provider.from },
        { trusted: false, dkim: provider.dkim },
      )
    : await sendDeploymentEmail(mail);
  return { provider, result };
}
