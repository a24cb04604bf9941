import { simpleParser, type AddressObject } from "mailparser";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";

export interface ParsedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The parts of a raw message the tests read, decoded by mailparser (MIME, encodings, encoded words). */
async function parseMail(raw: Buffer): Promise<ParsedMail> {
  const m = await simpleParser(raw);
  const to = ([] as AddressObject[])
    .concat(m.to ?? [])
    .map((a) => a.text)
    .join(", ");
  return { to, subject: m.subject ?? "", text: m.text ?? "", html: typeof m.html === "string" ? m.html : "" };
}

export interface CapturedMail extends ParsedMail {
  envelopeTo: string[];
  receivedAt: number;
}

/** The SMTP port the app under test sends to (playwright.config.ts passes SMTP_URL with it). */
export const smtpPort = (e2ePort: number) => e2ePort + 1000;

/** Where the capture writes the mail and every test reads it (e2e/support/global-setup.ts empties it). */
export const MAIL_DIR = ".next/e2e-mail";

/**
 * A real SMTP server capturing every message, one JSON file each in `dir`. The app sends through
 * nodemailer exactly as in production. It runs once for the whole run (global-setup.ts), not in a
 * Playwright worker: the app has one SMTP_URL, and tests in every worker must see the mail it sent.
 */
export class MailCapture {
  private server: SMTPServer;

  constructor(dir: string) {
    let n = 0;
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          parseMail(Buffer.concat(chunks)).then(
            (mail) => {
              const captured: CapturedMail = {
                ...mail,
                envelopeTo: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
                receivedAt: Date.now(),
              };
              // Written whole, then renamed: a reader never sees half a message.
              const file = join(dir, `${captured.receivedAt}-${n++}.json`);
              writeFileSync(`${file}.tmp`, JSON.stringify(captured));
              renameSync(`${file}.tmp`, file);
              callback();
            },
            (err: Error) => callback(err),
          );
        });
      },
    });
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, "127.0.0.1", () => resolve());
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The mail the capture has received so far, as the tests read it (from any worker). */
export class Mailbox {
  constructor(private dir = MAIL_DIR) {}

  get mails(): CapturedMail[] {
    return readdirSync(this.dir)
      .filter((f) => f.endsWith(".json"))
      .map((f) => JSON.parse(readFileSync(join(this.dir, f), "utf8")) as CapturedMail)
      .sort((a, b) => a.receivedAt - b.receivedAt);
  }

  /** Waits for the next mail to `to` received after `since` whose subject matches. */
  async waitFor(
    to: string,
    opts: { subject?: RegExp; since?: number; timeoutMs?: number } = {},
  ): Promise<CapturedMail> {
    const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
    const since = opts.since ?? 0;
    for (;;) {
      const hit = this.mails.find(
        (m) =>
          m.receivedAt >= since &&
          m.envelopeTo.includes(to.toLowerCase()) &&
          (!opts.subject || opts.subject.test(m.subject)),
      );
      if (hit) return hit;
      if (Date.now() > deadline)
        throw new Error(
          `No mail to ${to} matching ${opts.subject ?? "anything"} within the timeout. Got: ${this.mails.map((m) => `${m.envelopeTo} "${m.subject}"`).join(", ")}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export function linksIn(mail: ParsedMail): string[] {
  return mail.text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
}
