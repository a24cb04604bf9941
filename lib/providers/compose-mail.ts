import MailComposer from "nodemailer/lib/mail-composer";
import type { DkimKey } from "./dkim";
import { dkimSigned } from "./dkim-sign";
import { mimeMessage } from "./mime-message";
import type { OutgoingEmail } from "./outgoing-email";

export type { OutgoingEmail };

/**
 * A message's MIME bytes and envelope, built before its SMTP exchange and handed to nodemailer whole (its
 * `raw`). Streamed from the composer during DATA, a message left in one socket write per encoded chunk, and
 * on a TCP_NODELAY socket each write is a packet and a system call of its own: the worker spent more of
 * its CPU in those writes than in anything else (docs/decisions/0031). Whole, DATA is one or two writes.
 * With `dkim`, the bytes are signed here (dkim-sign.ts: nodemailer's canonicalization, the RSA off the
 * event loop); compose-threads.ts runs this off the sender's thread. Messages of the usual shape are
 * assembled by mime-message.ts, the rest by nodemailer's MailComposer.
 */
export async function composeMail(mail: OutgoingEmail, dkim: DkimKey | null = null): Promise<ComposedMail> {
  const fast = mimeMessage(mail);
  if (fast) {
    const envelope = { from: fast.envelopeFrom, to: [mail.to] };
    return { raw: dkim ? await dkimSigned(fast.raw, dkim) : fast.raw, envelope };
  }
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
  const raw = await node.build();
  return { raw: dkim ? await dkimSigned(raw, dkim) : raw, envelope: { from, to: [mail.to] } };
}

export interface ComposedMail {
  raw: Buffer;
  envelope: { from: string; to: string[] };
}
