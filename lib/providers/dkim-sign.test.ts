import { generateKeyPairSync } from "node:crypto";
import DKIM from "nodemailer/lib/dkim";
import { describe, expect, it } from "vitest";
import { dkimVerifies } from "../../scripts/test/dkim-verify";
import { composeMail } from "./compose-mail";
import { dkimKey, dkimRecord } from "./dkim";
import { dkimSigned } from "./dkim-sign";

const pem = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();
const key = dkimKey("acme.example", "s1", pem)!;

/** What nodemailer's own signer writes for the same bytes (RSA PKCS#1 v1.5 signatures are deterministic). */
function nodemailerSigned(raw: Buffer): Promise<Buffer> {
  const signer = new DKIM({
    domainName: key.domain,
    keySelector: key.selector,
    privateKey: pem,
    headerFieldNames: key.headerFieldNames,
  });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const out = signer.sign(raw);
    out.on("data", (c: Buffer) => chunks.push(c));
    out.once("end", () => resolve(Buffer.concat(chunks)));
    out.once("error", reject);
  });
}

const messages: Record<string, Buffer> = {
  // Whitespace the relaxed body rules reduce: runs of spaces and tabs, trailing blanks, empty last lines.
  "odd whitespace": Buffer.from(
    "From: Acme <news@acme.example>\r\nTo: ada@example.com\r\nSubject:  Hello\r\n   folded\tsubject \r\n" +
      "Date: Tue, 01 Dec 2026 10:00:00 +0000\r\nMessage-ID: <m-1@relay.test>\r\nX-Other: not signed\r\n\r\n" +
      "Hi  Ada, \t\r\n\r\nline\twith tab  \r\n\r\n\r\n",
  ),
  "no body": Buffer.from("From: a@acme.example\r\nTo: b@example.com\r\nSubject: empty\r\n\r\n"),
  "non-ASCII header": Buffer.from("From: Zoë <z@acme.example>\r\nTo: b@example.com\r\nSubject: héllo\r\n\r\nbody\r\n"),
};

describe("dkimSigned", () => {
  for (const [name, raw] of Object.entries(messages))
    it(`writes the field nodemailer's signer writes: ${name}`, async () => {
      const ours = await dkimSigned(raw, key);
      const field = ours.length - raw.length;
      // The message follows unchanged (nodemailer's adds a line break to an empty body).
      expect(ours.subarray(field).equals(raw)).toBe(true);
      expect(ours.subarray(0, field).toString()).toBe((await nodemailerSigned(raw)).subarray(0, field).toString());
      expect(ours.subarray(0, field).toString()).toMatch(
        /^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=acme.example;[\s\S]* b=[\s\S]+\r\n$/,
      );
    });

  it("signs a composed message so that an independent verifier accepts it, and not once a header changed", async () => {
    const { raw } = await composeMail(
      {
        from: "Acme <news@acme.example>",
        to: "ada@example.com",
        subject: "Hello",
        text: "Hi Ada",
        html: "<p>Hi Ada</p>",
        messageId: "<m-2@relay.test>",
        headers: {
          "List-Unsubscribe": "<https://relay.test/u/x>",
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      },
      key,
    );
    const record = dkimRecord(key.domain, key.selector, pem);
    expect(raw.toString()).toMatch(
      /h=from:to:subject:date:message-id:list-unsubscribe:\s*list-unsubscribe-post:mime-version:content-type;/,
    );
    expect(dkimVerifies(raw, record)).toBe(true);
    expect(dkimVerifies(Buffer.from(raw.toString().replace("Subject: Hello", "Subject: Hellp")), record)).toBe(false);
  });
});
