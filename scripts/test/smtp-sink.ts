import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface SunkMail {
  to: string[];
  /** The envelope sender (MAIL FROM) as this server received it; "" for a null sender. */
  mailFrom: string;
  /** The message as received, byte for byte (what a DKIM verifier reads). */
  source: Buffer;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Map<string, unknown>;
  /** Each header as sent (`List-Unsubscribe: <…>`), by lower-case name; mailparser restructures List-* ones. */
  raw: Map<string, string>;
  /** When its data ended (Date.now()), for tests that measure a send rate. */
  at: number;
}

/**
 * A real SMTP server on 127.0.0.1 keeping every message it accepts, parsed by mailparser (headers
 * included). `answer` lets a test refuse the next messages with an SMTP code (451 transient, 550
 * permanent), as a provider in trouble does.
 */
export class SmtpSink {
  readonly mails: SunkMail[] = [];
  answer: { code: number; message: string } | null = null;
  /** Milliseconds each message's data waits before it is accepted: a provider that takes its time. */
  acceptDelayMs = 0;
  /** Connections opened to this server so far. */
  connections = 0;
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      // Providers in tests carry a user and password over plain SMTP on 127.0.0.1: accept them.
      allowInsecureAuth: true,
      onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
      disabledCommands: ["STARTTLS"],
      logger: false,
      size: 10 * 1024 * 1024,
      onConnect: (_session, callback) => {
        this.connections++;
        callback();
      },
      onRcptTo: (_address, _session, callback) => {
        if (!this.answer) return callback();
        callback(Object.assign(new Error(this.answer.message), { responseCode: this.answer.code }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const at = Date.now();
          const source = Buffer.concat(chunks);
          simpleParser(source).then(
            async (m) => {
              if (this.acceptDelayMs) await new Promise((r) => setTimeout(r, this.acceptDelayMs));
              const from = session.envelope.mailFrom;
              this.mails.push({
                at,
                to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
                mailFrom: from ? from.address : "",
                source,
                subject: m.subject ?? "",
                text: m.text ?? "",
                html: typeof m.html === "string" ? m.html : "",
                messageId: m.messageId ?? "",
                headers: m.headers,
                raw: new Map(m.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(":") + 1).trim()])),
              });
              callback();
            },
            (err: Error) => callback(err),
          );
        });
      },
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, "127.0.0.1", () => resolve());
    });
    // A sender killed mid-exchange resets its socket, and smtp-server re-emits that as the server's 'error':
    // without a listener it is an uncaught exception of the whole test run.
    this.server.on("error", () => {});
    this.port = (this.server.server.address() as { port: number }).port;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  to(address: string): SunkMail[] {
    return this.mails.filter((m) => m.to.includes(address.toLowerCase()));
  }
}

/**
 * An SMTP server on 127.0.0.1 that takes each message's data and never answers it: a worker sending
 * through it holds its claimed messages (as after a provider's acceptance not yet recorded) until it is
 * killed. `held` lists each message's first recipient as its data ended.
 */
export async function stallingSmtp(): Promise<{ port: number; held: string[]; close: () => void }> {
  const held: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData: (stream, session) => {
      stream.resume();
      stream.on("end", () => held.push(session.envelope.rcptTo[0]!.address));
    },
  });
  // A sender killed mid-exchange resets its socket, and smtp-server re-emits that as the server's 'error':
  // without a listener it is an uncaught exception of the whole test run.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.server.address() as { port: number }).port,
    held,
    close: () => server.close(),
  };
}
