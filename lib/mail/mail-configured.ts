import { outboxEnabled } from "./outbox";

/** Whether this process can send mail at all: an SMTP server, or (development and tests) the file outbox. */
export function mailConfigured(): boolean {
  return Boolean(process.env.SMTP_URL) || outboxEnabled();
}

/** The one line both processes log at start when mail cannot go anywhere. */
export const MAIL_NOT_CONFIGURED =
  "SMTP_URL is not set: sign-in mail is refused with a 'mail is not configured' page, and invitation mail waits in the mail.invite queue until SMTP_URL is set and the worker restarts.";
