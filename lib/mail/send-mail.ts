import nodemailer, { type Transporter } from "nodemailer";
import { metrics } from "@/lib/observability/metrics";
import { deploymentDkim } from "@/lib/providers/dkim";
import { appendToOutbox, outboxEnabled } from "./outbox";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

let transport: Transporter | undefined;

export function mailFrom(): string {
  return process.env.MAIL_FROM ?? "Relay <no-reply@relay.local>";
}

/**
 * Sends over SMTP when SMTP_URL is set (e.g. `smtp://user:pass@smtp.example.com:587`); otherwise, in
 * development only, appends the mail to the local outbox shown at /dev/outbox.
 */
export async function sendMail(mail: Mail): Promise<void> {
  metrics.mail.inc({ outcome: "queued" });
  await sendMailNow(mail).then(
    () => metrics.mail.inc({ outcome: "sent" }),
    (err) => (metrics.mail.inc({ outcome: "failed" }), Promise.reject(err)),
  );
}

async function sendMailNow(mail: Mail): Promise<void> {
  const url = process.env.SMTP_URL;
  if (url) {
    transport ??= nodemailer.createTransport(url);
    const key = deploymentDkim();
    await transport.sendMail({
      from: mailFrom(),
      ...mail,
      ...(key
        ? {
            dkim: {
              domainName: key.domain,
              keySelector: key.selector,
              privateKey: key.privateKey as unknown as string,
              headerFieldNames: key.headerFieldNames,
            },
          }
        : {}),
    });
    return;
  }
  if (outboxEnabled()) {
    await appendToOutbox(mail);
    return;
  }
  throw new Error("SMTP_URL is not set: the console cannot send sign-in or invitation mail.");
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A plain, readable mail layout with one call-to-action button. */
export function buttonMail(opts: {
  heading: string;
  intro: string;
  button: string;
  url: string;
  footer: string;
}): string {
  const e = escapeHtml;
  return `<!doctype html><html><body style="margin:0;background:#f4f4f5;font-family:system-ui,sans-serif;color:#18181b">
<div style="max-width:480px;margin:32px auto;background:#fff;border:1px solid #e4e4e7;border-radius:12px;padding:32px">
<p style="margin:0 0 8px;font-size:12px;letter-spacing:.1em;text-transform:uppercase;color:#4f46e5;font-weight:600">Relay</p>
<h1 style="margin:0 0 12px;font-size:20px">${e(opts.heading)}</h1>
<p style="margin:0 0 24px;line-height:1.5;color:#3f3f46">${e(opts.intro)}</p>
<a href="${e(opts.url)}" style="display:inline-block;background:#4f46e5;color:#fff;text-decoration:none;padding:10px 18px;border-radius:8px;font-weight:600">${e(opts.button)}</a>
<p style="margin:24px 0 0;font-size:13px;line-height:1.5;color:#71717a">${e(opts.footer)}</p>
</div></body></html>`;
}
