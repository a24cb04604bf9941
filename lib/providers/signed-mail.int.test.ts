import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBounceAddress } from "@/lib/messages/bounce-address";
import { dkimVerifies } from "@/scripts/test/dkim-verify";
import { api } from "@/scripts/test/helpers";
import { TEST_AUTH_SECRET } from "@/scripts/test/next-server";
import { waitFor } from "@/scripts/test/worker";
import { type PrivatePostfix, startPostfix } from "@/scripts/test/postfix";
import { finalRow, newUser, p, queue, sink, template, useMessagesProject } from "@/test/fixtures/messages";

/*
 * What a receiving server sees of an e-mail: its DKIM signature, verified by an independent verifier
 * (dkimpy) against the TXT record Relay answered, and its envelope sender, the message's bounce address.
 * Once through a private Postfix (which relays to the test's smtp-server sink, so the bytes read are the
 * ones Postfix passed on) and once to smtp-server directly.
 */
const BOUNCE_DOMAIN = "bounces.relay.example.test";
useMessagesProject("relay_providers_signed", { BOUNCE_DOMAIN });
process.env.AUTH_SECRET ??= TEST_AUTH_SECRET;

let postfix: PrivatePostfix;
beforeAll(async () => {
  postfix = await startPostfix({ relayTo: sink.port });
}, 120_000);
afterAll(() => postfix?.stop());

/** The worker holds a loaded provider for 5 s (load-provider.ts): a change reaches it after that. */
const providerCacheLapsed = () => new Promise((r) => setTimeout(r, 5_500));

/** The tags of the mail's DKIM-Signature header (`h`, `c`, `d`, `s`…). */
function dkimTags(source: Buffer): Record<string, string> {
  const text = source.toString("latin1");
  const m = /^DKIM-Signature:((?:.*\r?\n[ \t].*)*.*)/im.exec(text);
  if (!m) return {};
  const tags: Record<string, string> = {};
  for (const part of m[1]!.replace(/\r?\n[ \t]/g, "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) tags[part.slice(0, i).trim()] = part.slice(i + 1).replace(/\s+/g, "");
  }
  return tags;
}

async function sendOne() {
  const user = await newUser();
  const templateId = await template({
    subject: "Signed {{ user.email }}",
    text: "Hello",
    html: '<p>Hello</p><a href="{{ unsubscribe_url }}">Unsubscribe</a>',
  });
  const m = await queue({ templateId, userId: user.id });
  expect(await finalRow(m.id)).toMatchObject({ state: "sent" });
  // Through Postfix the sink gets it a moment after Postfix accepted it.
  const mails = await waitFor(async () => sink.to(user.email!).length > 0 && sink.to(user.email!), 30_000, "the mail");
  expect(mails).toHaveLength(1);
  return { mail: mails[0]!, messageId: m.id };
}

describe("signed mail with a bounce address", () => {
  let providerId = "";
  let record = { name: "", value: "" };

  it("makes a DKIM key, answers its TXT record and never the key", async () => {
    const created = await api("POST", p.admin("/providers"), {
      key: p.keys.admin,
      body: {
        channel: "email",
        kind: "smtp",
        name: "Postfix",
        url: `smtp://127.0.0.1:${postfix.port}?tls=none`,
        from: "News <news@relay.example.test>",
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.dkim).toBeNull();
    providerId = created.body.id;
    const denied = await api("POST", p.admin(`/providers/${providerId}/dkim`), {
      key: p.keys.editor,
      body: { domain: "relay.example.test", selector: "s1" },
    });
    expect(denied.status).toBe(403);
    const made = await api("POST", p.admin(`/providers/${providerId}/dkim`), {
      key: p.keys.admin,
      body: { domain: "Relay.Example.Test", selector: "s1" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.record.name).toBe("s1._domainkey.relay.example.test");
    expect(made.body.record.type).toBe("TXT");
    expect(made.body.record.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
    record = made.body.record;
    const shown = await api("GET", p.admin(`/providers/${providerId}`), { key: p.keys.admin });
    expect(shown.body.dkim).toEqual({ domain: "relay.example.test", selector: "s1", key_set: true });
    expect(JSON.stringify(shown.body)).not.toMatch(/PRIVATE KEY|MII/);
  });

  it("through Postfix: the signature verifies, a changed Subject fails it, MAIL FROM is the bounce address", async () => {
    const { mail, messageId } = await sendOne();
    const tags = dkimTags(mail.source);
    expect(tags.c).toBe("relaxed/relaxed");
    expect(tags.d).toBe("relay.example.test");
    expect(tags.s).toBe("s1");
    expect(tags.h!.toLowerCase().split(":")).toEqual(
      expect.arrayContaining([
        "from",
        "to",
        "subject",
        "date",
        "message-id",
        "list-unsubscribe",
        "list-unsubscribe-post",
        "mime-version",
        "content-type",
      ]),
    );
    // Postfix added its Received header on the way: outside h=, so the signature still holds.
    expect(mail.source.toString()).toMatch(/^Received: from /m);
    expect(dkimVerifies(mail.source, record)).toBe(true);
    const changed = Buffer.from(
      mail.source.toString("latin1").replace(/^Subject: Signed/m, "Subject: Signet"),
      "latin1",
    );
    expect(changed.equals(mail.source)).toBe(false);
    expect(dkimVerifies(changed, record)).toBe(false);

    expect(mail.mailFrom).toMatch(new RegExp(`^b-[a-z2-7]{61}@${BOUNCE_DOMAIN.replaceAll(".", "\\.")}$`));
    expect(readBounceAddress(mail.mailFrom, BOUNCE_DOMAIN)).toEqual({ projectId: p.projectId, messageId });
    expect(postfix.log()).toContain(`from=<${mail.mailFrom}>`);
    // The header From is the provider's, not the bounce address.
    expect(mail.raw.get("from")).toBe("News <news@relay.example.test>");
  });

  it("straight to smtp-server after the provider's URL changed: signed and with its bounce address", async () => {
    const changed = await api("PATCH", p.admin(`/providers/${providerId}`), {
      key: p.keys.admin,
      body: { url: `smtp://127.0.0.1:${sink.port}` },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.dkim).toMatchObject({ key_set: true });
    await providerCacheLapsed();
    const before = postfix.log().split("\n").length;
    const { mail, messageId } = await sendOne();
    expect(mail.source.toString()).not.toMatch(/^Received: from /m);
    expect(dkimVerifies(mail.source, record)).toBe(true);
    expect(readBounceAddress(mail.mailFrom, BOUNCE_DOMAIN)).toEqual({ projectId: p.projectId, messageId });
    expect(postfix.log().split("\n").slice(before).join("\n")).not.toContain(mail.mailFrom);
  });

  it("refuses a key that is not an RSA private key, and removes one with null", async () => {
    const bad = await api("PATCH", p.admin(`/providers/${providerId}`), {
      key: p.keys.admin,
      body: { dkim: { domain: "relay.example.test", selector: "s2", private_key: "not a key" } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("dkim.private_key");
    const removed = await api("PATCH", p.admin(`/providers/${providerId}`), {
      key: p.keys.admin,
      body: { dkim: null },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.dkim).toBeNull();
    await providerCacheLapsed();
    const { mail } = await sendOne();
    expect(dkimTags(mail.source)).toEqual({});
  });
});
