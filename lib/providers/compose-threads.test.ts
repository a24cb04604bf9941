import { generateKeyPairSync } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SmtpSink, stallingSmtp } from "../../scripts/test/smtp-sink";
import { composeMail, type OutgoingEmail } from "./compose-mail";
import { composeThreadWorkers, sendOnComposeThread, startComposeThreads, stopComposeThreads } from "./compose-threads";
import { dkimKey } from "./dkim";
import { SMTP_CONNECTIONS } from "./smtp-pool";

const mail: OutgoingEmail = {
  from: "Acme <news@acme.example>",
  to: "ada@example.com",
  subject: "Hello",
  text: "Hi Ada",
  html: "<p>Hi Ada</p>",
  messageId: "<m-1@relay.test>",
  headers: { "List-Unsubscribe": "<https://relay.test/u/x>" },
  envelopeFrom: "b-token@bounces.relay.test",
};
const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" });
const key = dkimKey("acme.example", "s1", pem.toString())!;

/** The bytes without what differs between two compositions of one mail (its MIME boundaries and Date). */
const stable = (raw: Buffer) =>
  raw
    .toString()
    .replace(/--_NmP-[0-9a-f-]+/g, "--B")
    .replace(/boundary="[^"]+"/g, 'boundary="B"')
    .replace(/^Date: .*$/m, "Date: D")
    .replace(/ b=[^;]+$/s, "");

let sink: SmtpSink;
let pools = 0;
/** A pool of its own for each test (a new version), so no test reuses another's connections. */
const to = (port: number) => ({
  owner: "deployment",
  version: `v${pools++}`,
  smtpUrl: `smtp://127.0.0.1:${port}`,
  trusted: true,
});

beforeAll(async () => {
  sink = await new SmtpSink().listen();
});
afterAll(() => sink.close());

describe("compose threads", () => {
  afterEach(() => stopComposeThreads());

  it("compose, sign and send on a thread what composing in line makes", async () => {
    startComposeThreads(1);
    expect(await sendOnComposeThread({ pool: to(sink.port), mail, dkim: key })).toEqual({
      ok: true,
      providerMessageId: "<m-1@relay.test>",
    });
    const [got] = sink.to("ada@example.com");
    expect(got!.mailFrom).toBe("b-token@bounces.relay.test");
    expect(got!.source.toString()).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=acme.example;/);
    const inline = await composeMail(mail, key);
    expect(stable(got!.source).split("\r\n\r\n")[1]).toBe(stable(inline.raw).split("\r\n\r\n")[1]);
  });

  it("share the process's SMTP connections between them", async () => {
    startComposeThreads(2);
    sink.acceptDelayMs = 30;
    const before = sink.connections;
    const many = Array.from({ length: 5 * SMTP_CONNECTIONS }, (_, i) => ({ ...mail, to: `u${i}@example.com` }));
    const pool = to(sink.port);
    const results = await Promise.all(many.map((m) => sendOnComposeThread({ pool, mail: m, dkim: null })));
    sink.acceptDelayMs = 0;
    expect(results.every((r) => r.ok)).toBe(true);
    // Each thread's pool opens half: as many connections in all as one thread's pool would.
    expect(sink.connections - before).toBe(SMTP_CONNECTIONS);
  });

  it("fail the message of a thread that dies as transient, and send the next on its replacement", async () => {
    const stalling = await stallingSmtp();
    try {
      startComposeThreads(1);
      const [first] = composeThreadWorkers();
      const held = sendOnComposeThread({
        pool: to(stalling.port),
        mail: { ...mail, to: "held@example.com" },
        dkim: null,
      });
      while (!stalling.held.length) await new Promise((r) => setTimeout(r, 20));
      await first!.terminate();
      expect(await held).toMatchObject({
        ok: false,
        transient: true,
        reason: expect.stringMatching(/compose thread exited/),
      });
      const [replacement] = composeThreadWorkers();
      expect(replacement).not.toBe(first);
      const next = { ...mail, to: "next@example.com" };
      expect(await sendOnComposeThread({ pool: to(sink.port), mail: next, dkim: null })).toMatchObject({ ok: true });
      expect(sink.to("next@example.com")).toHaveLength(1);
    } finally {
      stalling.close();
    }
  });
});
