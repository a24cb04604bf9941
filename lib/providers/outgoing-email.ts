/** An e-mail to send, as the transports take it (composed by compose-mail.ts). */
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
