import { mkdirSync, rmSync } from "node:fs";
import { MAIL_DIR, MailCapture, smtpPort } from "./mailbox";

/** One SMTP capture for the whole run, whichever worker a test runs in (see MailCapture). */
export default async function globalSetup() {
  rmSync(MAIL_DIR, { recursive: true, force: true });
  mkdirSync(MAIL_DIR, { recursive: true });
  const capture = new MailCapture(MAIL_DIR);
  await capture.listen(smtpPort(Number(process.env.E2E_PORT ?? 3100)));
  return () => capture.close();
}
