import { simpleParser } from "mailparser";
import MailComposer from "nodemailer/lib/mail-composer";
import { describe, expect, it } from "vitest";
import type { OutgoingEmail } from "./outgoing-email";
import { mimeMessage } from "./mime-message";

const base: OutgoingEmail = {
  from: "Acme <news@acme.example>",
  to: "ann@example.com",
  subject: "Ann, your pro plan in November",
  text: "Hi Ann,\n\nRead more: https://acme.example/news\n",
  html: '<p>Hi Ann</p><p><a href="https://acme.example/news">Read more</a></p>',
  messageId: "<0193b6f2-7a1c-7def-8000-1234567890ab@relay.example>",
  headers: {
    "List-Unsubscribe": `<https://relay.example/u/${"t".repeat(160)}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    "X-PM-Metadata-relay-message-id": "0193b6f2-7a1c-7def-8000-1234567890ab",
  },
  envelopeFrom: "b-token@bounce.example",
};

/** What a reader of the mail sees: the parsed headers and parts, as mailparser gives them. */
async function seen(raw: Buffer | string) {
  const m = await simpleParser(raw);
  return {
    from: m.from?.value,
    to: m.to && !Array.isArray(m.to) ? m.to.value : null,
    subject: m.subject,
    messageId: m.messageId,
    text: m.text,
    html: m.html,
    unsubscribe: m.headers.get("list-unsubscribe"),
    unsubscribePost: m.headers.get("list-unsubscribe-post"),
  };
}

async function nodemailerBytes(mail: OutgoingEmail) {
  return new MailComposer({ ...mail, text: mail.text || undefined, html: mail.html || undefined }).compile().build();
}

const lines = (raw: Buffer) => raw.toString("utf8").split("\r\n");

describe("mimeMessage", () => {
  const cases: [string, Partial<OutgoingEmail>][] = [
    ["plain ASCII", {}],
    [
      "non-ASCII subject, name, text and html",
      {
        from: "Acme Ünïcode — Café <news@acme.example>",
        subject: `Änne, dein Plan im November — ${"lang ".repeat(20)}`,
        text: `Grüße, Änne = 1\n${"ä".repeat(120)}\ntrailing space \n`,
        html: `<p>Grüße ${"ö".repeat(200)}</p>`,
      },
    ],
    [
      "mostly multi-byte (base64)",
      { subject: "十一月のお知らせ", text: "こんにちは、".repeat(40), html: `<p>${"日本語".repeat(60)}</p>` },
    ],
    ["a display name with specials", { from: '"Acme, Inc." <news@acme.example>' }],
    ["a bare address as From", { from: "news@acme.example" }],
    ["text only", { html: "" }],
    ["html only", { text: "" }],
    [
      "long lines and dots at line starts",
      { text: `${"x".repeat(300)}\n.\n..leading dots\n`, html: `<p>${"y".repeat(500)}</p>` },
    ],
    ["CRLF and LF line ends", { text: "one\r\ntwo\nthree\r\n" }],
  ];
  for (const [name, change] of cases)
    it(`reads as nodemailer's composition reads: ${name}`, async () => {
      const mail = { ...base, ...change };
      const fast = mimeMessage(mail)!;
      expect(fast).not.toBeNull();
      expect(await seen(fast.raw)).toEqual(await seen(await nodemailerBytes(mail)));
      expect(fast.envelopeFrom).toBe("b-token@bounce.example");
      // Every line within the limit a receiver may enforce, and every header continuation indented.
      for (const line of lines(fast.raw)) expect(line.length).toBeLessThanOrEqual(998);
      const head = lines(fast.raw).slice(0, lines(fast.raw).indexOf(""));
      for (const line of head) expect(line).toMatch(/^([\x21-\x39\x3b-\x7e]+: |[ \t])|^[\x21-\x39\x3b-\x7e]+:$/);
    });

  it("keeps header names as given (Postmark reads its metadata key from the name)", () => {
    const raw = mimeMessage(base)!.raw.toString();
    expect(raw).toContain("\r\nX-PM-Metadata-relay-message-id: 0193b6f2-7a1c-7def-8000-1234567890ab\r\n");
  });

  it("takes the From address as the envelope sender without a bounce address", () => {
    expect(mimeMessage({ ...base, envelopeFrom: null })!.envelopeFrom).toBe("news@acme.example");
  });

  it("writes a boundary the parts cannot contain, even when a template writes it out", async () => {
    const boundary = "=_relay_0193b6f2-7a1c-7def-8000-1234567890ab";
    const mail = { ...base, text: `--${boundary}\n--${boundary}--\n`, html: `<p>--${boundary}</p>` };
    const parsed = await seen(mimeMessage(mail)!.raw);
    expect(parsed.text).toBe(`--${boundary}\n--${boundary}--\n`);
    expect(parsed.html).toBe(`<p>--${boundary}</p>`);
  });

  it("leaves to nodemailer what it does not write itself", () => {
    expect(mimeMessage({ ...base, to: "jõgeva@näide.ee" })).toBeNull();
    expect(mimeMessage({ ...base, from: "Acme <news@acme.example>, Other <o@acme.example>" })).toBeNull();
    expect(mimeMessage({ ...base, from: "Group: a@acme.example;" })).toBeNull();
    expect(mimeMessage({ ...base, headers: { "Bad Name": "x" } })).toBeNull();
  });

  it("keeps a header value on its line: CR and LF in a value become spaces", () => {
    const raw = mimeMessage({ ...base, subject: "one\r\nBcc: victim@example.com" })!.raw.toString();
    expect(raw).not.toMatch(/\r\nBcc:/);
    expect(raw).toContain("Subject: one Bcc: victim@example.com\r\n");
  });

  it("ends a line at a lone CR too (RFC 5322 allows a CR only before LF)", async () => {
    expect((await seen(mimeMessage({ ...base, text: "one\rtwo" })!.raw)).text).toBe("one\ntwo");
  });
});
