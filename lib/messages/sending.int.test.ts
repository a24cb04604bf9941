import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import {
  finalRow,
  messageRow,
  newUser,
  p,
  queue,
  sink,
  template,
  useMessagesProject,
} from "../../test/fixtures/messages";

/*
 * The one send verb against a real worker and a real SMTP exchange: locale variants, headers, once per
 * cause, each skip reason, quiet hours, and a provider's transient and permanent refusals.
 */
useMessagesProject("relay_messages_sending");

describe("sending", () => {
  it("renders the user's locale variant over SMTP with one-click unsubscribe headers and a Message-ID; once per cause", async () => {
    const user = await newUser({ locale: "de-AT", data: { plan: "pro" } });
    const templateId = await template({
      subject: "Hello {{ user.data.plan }}",
      text: "Plan {{ user.data.plan }} / order {{ journey.order_id }} / {{ user.constructor }}|",
      html: '<p>Hi</p><a href="https://shop.example.com/x?a=1&amp;b=2">shop</a>',
      locales: { de: { subject: "Hallo {{ user.data.plan }}" } },
    });
    const cause = { entryId: crypto.randomUUID(), stepKey: "welcome" };
    const first = await queue({ templateId, userId: user.id, cause, journeyData: { order_id: "A-17" } });
    expect(first).toMatchObject({ state: "queued", created: true });
    const again = await queue({ templateId, userId: user.id, cause });
    expect(again).toMatchObject({ id: first.id, created: false });
    const row = await finalRow(first.id);
    expect(row).toMatchObject({ state: "sent", reason: null, attempts: 1, recipient: user.email, locale: "de" });
    expect(row.subject).toBe("Hallo pro");
    const mails = sink.to(user.email!);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe("Hallo pro");
    expect(mail.text).toContain("Plan pro / order A-17 / |");
    expect(mail.messageId).toBe(`<${first.id}@relay.example.test>`);
    expect(mail.raw.get("list-unsubscribe")).toMatch(/^<https:\/\/relay\.example\.test\/u\//);
    expect(mail.raw.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(mail.html).toMatch(/href="https:\/\/relay\.example\.test\/l\/[^"]+"/);
    expect(mail.html).not.toContain("shop.example.com");
  });

  it("falls back from de-AT to the default when no German variant exists; a transactional mail has no unsubscribe header", async () => {
    const user = await newUser({ locale: "fr-CA" });
    const templateId = await template({
      transactional: true,
      subscription_group: null,
      subject: "Receipt",
      text: "Thanks",
      locales: { de: { subject: "Beleg" } },
    });
    const m = await queue({ templateId, userId: user.id });
    expect(await finalRow(m.id)).toMatchObject({ state: "sent", locale: null, subject: "Receipt" });
    const mail = sink.to(user.email!)[0]!;
    expect(mail.raw.get("list-unsubscribe")).toBeUndefined();
  });

  it("skips with a reason: no contact, unsubscribed, frequency cap; transactional mail is exempt", async () => {
    const templateId = await template({ subject: "News", text: "news" });
    const noEmail = await newUser({ email: null });
    expect(await queue({ templateId, userId: noEmail.id })).toMatchObject({ state: "skipped", reason: "no_contact" });

    const gone = await newUser();
    const changed = await api("POST", p.client("/users/subscriptions"), {
      key: p.keys.client,
      body: {
        identifier: [{ external_id: gone.externalId }],
        subscriptions: [{ group: "News", state: "unsubscribed" }],
      },
    });
    expect(changed.status).toBe(200);
    const unsub = await queue({ templateId, userId: gone.id });
    expect(unsub).toMatchObject({ state: "skipped", reason: "unsubscribed" });

    const capped = await newUser();
    const set = await api("PATCH", p.admin(""), {
      key: p.keys.admin,
      body: { frequency_cap: { email: { count: 1, per: "1 day" } } },
    });
    expect(set.status).toBe(200);
    const one = await queue({ templateId, userId: capped.id });
    expect((await finalRow(one.id)).state).toBe("sent");
    expect(await queue({ templateId, userId: capped.id })).toMatchObject({ state: "skipped", reason: "frequency_cap" });
    const receipt = await template({ transactional: true, subscription_group: null, subject: "R", text: "r" });
    const exempt = await queue({ templateId: receipt, userId: capped.id });
    expect((await finalRow(exempt.id)).state).toBe("sent");
    await api("PATCH", p.admin(""), { key: p.keys.admin, body: { frequency_cap: null } });
  });

  it("holds the frequency cap when sends to one user run at once", async () => {
    const templateId = await template({ subject: "Capped", text: "c" });
    const user = await newUser();
    await api("PATCH", p.admin(""), {
      key: p.keys.admin,
      body: { frequency_cap: { email: { count: 2, per: "1 day" } } },
    });
    try {
      // Six sends in six transactions at once: all are queued (none is sent yet), and the sender holds
      // them together, so only taking a slot at send time under a lock can keep it to two.
      const queued = await Promise.all(Array.from({ length: 6 }, () => queue({ templateId, userId: user.id })));
      const rows = await Promise.all(queued.map((m) => finalRow(m.id)));
      expect(rows.filter((r) => r.state === "sent")).toHaveLength(2);
      expect(rows.filter((r) => r.state === "skipped").map((r) => r.reason)).toEqual(Array(4).fill("frequency_cap"));
      expect(sink.to(user.email!)).toHaveLength(2);
    } finally {
      await api("PATCH", p.admin(""), { key: p.keys.admin, body: { frequency_cap: null } });
    }
  });

  it("waits out quiet hours in the user's time zone instead of dropping the message", async () => {
    // A window covering every hour but the next one, read in the user's zone: now is always inside it.
    const zone = "Pacific/Auckland";
    const local = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", hourCycle: "h23" }).format(
      new Date(),
    );
    const hour = (Number(local) + 2) % 24;
    const end = `${String(hour).padStart(2, "0")}:00`;
    const start = `${String((hour + 1) % 24).padStart(2, "0")}:00`;
    await api("PATCH", p.admin(""), { key: p.keys.admin, body: { quiet_hours: { start, end } } });
    const user = await newUser({ timezone: zone });
    const templateId = await template({ subject: "Later", text: "later" });
    const m = await queue({ templateId, userId: user.id });
    expect(m.state).toBe("queued");
    const row = await messageRow(m.id);
    const wait = new Date(row.next_attempt_at).getTime() - Date.now();
    expect(wait).toBeGreaterThan(60 * 60_000);
    expect(wait).toBeLessThan(2 * 60 * 60_000 + 60_000);
    // Moved past the end (as time passing would), it goes out.
    await api("PATCH", p.admin(""), { key: p.keys.admin, body: { quiet_hours: null } });
    await sql`update messages set next_attempt_at = now() where id = ${m.id}`;
    expect((await finalRow(m.id)).state).toBe("sent");
  });

  it("retries a provider's transient refusal and fails a permanent one with its reason", async () => {
    const user = await newUser();
    const templateId = await template({ subject: "retry", text: "r" });
    sink.answer = { code: 451, message: "try again later" };
    const m = await queue({ templateId, userId: user.id });
    await waitFor(async () => (await messageRow(m.id)).attempts >= 1, 20_000, "a first attempt");
    expect((await messageRow(m.id)).state).toBe("queued");
    sink.answer = null;
    expect(await finalRow(m.id)).toMatchObject({ state: "sent" });
    expect(sink.to(user.email!)).toHaveLength(1);

    const other = await newUser();
    sink.answer = { code: 550, message: "no such mailbox" };
    const bad = await queue({ templateId, userId: other.id });
    const row = await finalRow(bad.id);
    sink.answer = null;
    expect(row.state).toBe("failed");
    expect(row.reason).toMatch(/550.*no such mailbox/);
  });

  it("shows the user's messages in their timeline: sent, and skipped with the reason", async () => {
    const user = await newUser();
    const name = `Timeline ${crypto.randomUUID().slice(0, 8)}`;
    const templateId = await template({ name, subject: "T", text: "t" });
    const sent = await queue({ templateId, userId: user.id });
    expect((await finalRow(sent.id)).state).toBe("sent");
    await api("POST", p.client("/users/subscriptions"), {
      key: p.keys.client,
      body: {
        identifier: [{ external_id: user.externalId }],
        subscriptions: [{ group: "News", state: "unsubscribed" }],
      },
    });
    const skipped = await queue({ templateId, userId: user.id });
    expect(skipped.state).toBe("skipped");
    const res = await api("GET", p.admin(`/users/${user.id}/timeline?limit=50`), { key: p.keys.support });
    expect(res.status).toBe(200);
    const messages = res.body.data.filter((i: { kind: string }) => i.kind === "message");
    expect(messages.map((i: { title: string }) => i.title)).toEqual([
      `${name} (email): skipped (unsubscribed)`,
      `${name} (email): sent`,
    ]);
    expect(messages[0].id).toBe(skipped.id);
    expect(messages[1].detail).toMatchObject({
      message_id: sent.id,
      state: "sent",
      recipient: user.email,
      attempts: 1,
    });
  });
});
