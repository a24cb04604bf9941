import MailComposer from "nodemailer/lib/mail-composer";

export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Record<string, string>;
  /** MAIL FROM when it differs from `from` (the message's bounce address). */
  envelopeFrom?: string | null;
}

/**
 * A message's MIME bytes and envelope, built before its SMTP exchange and handed to nodemailer whole (its
 * `raw`). Streamed from the composer during DATA, a message left in one socket write per encoded chunk, and
 * on a TCP_NODELAY socket each write is a packet and a system call of its own: the worker spent more of
 * its CPU in those writes than in anything else (docs/decisions/0031). Whole, DATA is one or two writes.
 * DKIM still signs it: nodemailer signs the raw stream as it signs a composed one.
 */
export async function composeMail(
  mail: OutgoingEmail,
): Promise<{ raw: Buffer; envelope: { from: string; to: string[] } }> {
  const node = new MailComposer({
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text || undefined,
    html: mail.html || undefined,
    messageId: mail.messageId,
    headers: mail.headers,
  }).compile();
  const parsed = node.getEnvelope();
  // The envelope sender (MAIL FROM, the Return-Path at the receiver) is the bounce address when one is set.
  const from = mail.envelopeFrom || (parsed.from as string | false) || "";
  return { raw: await node.build(), envelope: { from, to: [mail.to] } };
}
