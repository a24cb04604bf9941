import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { composeMail, type OutgoingEmail } from "./compose-mail";
import { composeForSending, composeThreadWorkers, startComposeThreads, stopComposeThreads } from "./compose-threads";
import { dkimKey } from "./dkim";

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

describe("compose threads", () => {
  afterEach(() => stopComposeThreads());

  it("composes and signs on a thread what composing in line makes", async () => {
    startComposeThreads(1);
    const threaded = await composeForSending(mail, key);
    const inline = await composeMail(mail, key);
    expect(threaded.envelope).toEqual({ from: "b-token@bounces.relay.test", to: ["ada@example.com"] });
    expect(Buffer.isBuffer(threaded.raw)).toBe(true);
    expect(threaded.raw.toString()).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=acme.example;/);
    expect(threaded.raw.toString()).toContain("Subject: Hello");
    expect(stable(threaded.raw).split("\r\n\r\n")[1]).toBe(stable(inline.raw).split("\r\n\r\n")[1]);
  });

  it("fails the messages of a thread that dies, and composes the next on its replacement", async () => {
    startComposeThreads(1);
    const [first] = composeThreadWorkers();
    const inFlight = composeForSending(mail, key);
    await first!.terminate();
    await expect(inFlight).rejects.toThrow(/compose thread exited/);
    const [replacement] = composeThreadWorkers();
    expect(replacement).not.toBe(first);
    expect((await composeForSending(mail, key)).raw.toString()).toContain("Hi Ada");
  });
});
