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

/** Captured mail, and a wait for the next message to an address. */
abstract class MailSource {
  abstract get mails(): CapturedMail[];

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

/**
 * A real SMTP server capturing every message: the app sends through nodemailer exactly as in production.
 * Kept in memory, and with `dir` also written there, one JSON file each: the e2e run starts one for all
 * its Playwright workers (global-setup.ts), since the app has one SMTP_URL and a test in any worker must
 * see the mail it caused. `refusing` makes it answer every message with a temporary failure (451), as a
 * server in trouble does.
 */
export class MailCapture extends MailSource {
  readonly mails: CapturedMail[] = [];
  refusing = false;
  private server: SMTPServer;

  constructor(dir?: string) {
    super();
    let n = 0;
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onMailFrom: (_address, _session, callback) => {
        if (!this.refusing) return callback();
        callback(Object.assign(new Error("Mailbox refusing for this test"), { responseCode: 451 }));
      },
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
              this.mails.push(captured);
              if (dir) {
                // Written whole, then renamed: a reader never sees half a message.
                const file = join(dir, `${captured.receivedAt}-${n++}.json`);
                writeFileSync(`${file}.tmp`, JSON.stringify(captured));
                renameSync(`${file}.tmp`, file);
              }
              callback();
            },
            (err: Error) => callback(err),
          );
        });
      },
    });
  }

  listen(port: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, "127.0.0.1", () => resolve());
    }).then(() => {
      // A sender killed mid-exchange resets its socket; smtp-server re-emits that as the server's 'error'.
      this.server.on("error", () => {});
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The mail a capture wrote to its directory so far, as the e2e tests read it (from any worker). */
export class Mailbox extends MailSource {
  constructor(private dir = MAIL_DIR) {
    super();
  }

  get mails(): CapturedMail[] {
    return readdirSync(this.dir)
      .filter((f) => f.endsWith(".json"))
      .map((f) => JSON.parse(readFileSync(join(this.dir, f), "utf8")) as CapturedMail)
      .sort((a, b) => a.receivedAt - b.receivedAt);
  }
}

export function linksIn(mail: ParsedMail): string[] {
  return mail.text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
}
