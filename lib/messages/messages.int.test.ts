import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { api, createTestProject, ownDatabaseForFile, sql, type TestProject } from "../../scripts/test/helpers";
import { SmtpSink } from "../../scripts/test/smtp-sink";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";
import { systemContext } from "../access/context";
import { withTransaction } from "../db/transaction";
import { queueMessage, type QueueMessageInput } from "./queue-message";

/*
 * Templates and the one send verb against a real worker and a real SMTP exchange: the worker sends
 * through the deployment's SMTP_URL (the sink), so what arrives is what a receiver would see.
 */
ownDatabaseForFile("relay_messages");

let p: TestProject;
let sink: SmtpSink;
let worker: TestWorker;
let group: string;

beforeAll(async () => {
  sink = await new SmtpSink().listen();
  p = await createTestProject("messages");
  group = (
    await api("POST", p.admin("/subscription-groups"), { key: p.keys.admin, body: { name: "News", channel: "email" } })
  ).body.id;
  worker = await startWorker(process.env.DATABASE_URL!, {
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    MAIL_FROM: "Relay Test <news@relay.example.test>",
    AUTH_URL: "https://relay.example.test",
    MESSAGES_POLL_MS: "100",
    MESSAGES_RETRY_BASE_MS: "200",
  });
}, 240_000);

afterAll(async () => {
  await worker?.stop();
  await sink?.close();
});

let seq = 0;
async function newUser(fields: Record<string, unknown> = {}) {
  const id = `u-${++seq}-${crypto.randomUUID().slice(0, 8)}`;
  const res = await api("POST", p.client("/users"), {
    key: p.keys.client,
    body: { identifier: [{ external_id: id }], email: `${id}@example.com`, ...fields },
  });
  expect(res.status).toBeLessThan(300);
  return { id: res.body.id as string, email: res.body.email as string | null, externalId: id };
}

async function template(body: Record<string, unknown>) {
  const res = await api("POST", p.admin("/templates"), {
    key: p.keys.editor,
    body: { name: `t-${crypto.randomUUID().slice(0, 8)}`, channel: "email", subscription_group: group, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

const queue = (input: Omit<QueueMessageInput, "cause"> & { cause?: QueueMessageInput["cause"] }) =>
  withTransaction(getDb(), (tx) =>
    queueMessage(systemContext(tx, p.projectId), {
      cause: { entryId: crypto.randomUUID(), stepKey: "send-1" },
      ...input,
    }),
  );

const messageRow = async (id: string) =>
  (
    await sql`select state, reason, attempts, recipient, subject, locale, next_attempt_at from messages where id = ${id}`
  )[0]!;
const finalRow = (id: string) =>
  waitFor(
    async () => {
      const r = await messageRow(id);
      return r.state !== "queued" && r;
    },
    30_000,
    `message ${id} final`,
  );

describe("templates", () => {
  it("compile on save: a syntax error is a 400 naming the part, line and column, and writes nothing", async () => {
    const before = (await sql`select count(*)::int as n from message_templates where project_id = ${p.projectId}`)[0]!
      .n;
    const res = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: {
        name: "broken",
        channel: "email",
        subscription_group: group,
        html: "<p>Hi</p>\n<p>{% if user.email %}</p>",
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe("html");
    expect(res.body.errors[0].message).toMatch(/line 2, column \d+/);
    const locale = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: {
        name: "broken2",
        channel: "email",
        subscription_group: group,
        locales: { de: { subject: "{{ x | nope }}" } },
      },
    });
    expect(locale.status).toBe(400);
    expect(locale.body.errors[0].path).toBe("locales.de.subject");
    expect((await sql`select count(*)::int as n from message_templates where project_id = ${p.projectId}`)[0]!.n).toBe(
      before,
    );
  });

  it("needs a group of its channel unless transactional; support may read, not write", async () => {
    const noGroup = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: { name: "nogroup", channel: "email" },
    });
    expect(noGroup.status).toBe(400);
    expect(noGroup.body.errors[0].path).toBe("subscription_group");
    const sms = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: { name: "smsgroup", channel: "sms", subscription_group: "News", text: "hi" },
    });
    expect(sms.status).toBe(400);
    const receipt = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: { name: "Receipt", channel: "email", transactional: true, subject: "Your receipt", text: "Thanks" },
    });
    expect(receipt.status).toBe(201);
    expect(receipt.body.subscription_group).toBeNull();
    const denied = await api("POST", p.admin("/templates"), {
      key: p.keys.support,
      body: { name: "x", channel: "email", transactional: true },
    });
    expect(denied.status).toBe(403);
    const read = await api("GET", p.admin(`/templates/${receipt.body.id}`), { key: p.keys.support });
    expect(read.status).toBe(200);
    expect(read.body.name).toBe("Receipt");
  });
});

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
    expect(String(mail.headers.get("list-unsubscribe"))).toMatch(/^<https:\/\/relay\.example\.test\/u\//);
    expect(String(mail.headers.get("list-unsubscribe-post"))).toBe("List-Unsubscribe=One-Click");
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
    expect(mail.headers.get("list-unsubscribe")).toBeUndefined();
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

  it("stops hostile templates with a clear reason and keeps the worker sending", async () => {
    const user = await newUser();
    const loop = await template({ subject: "loop", text: "{% for i in (1..1000000000) %}x{% endfor %}" });
    const huge = await template({
      subject: "huge",
      text: '{% assign a = "xxxxxxxxxxxxxxxx" %}{% for i in (1..40) %}{% assign a = a | append: a %}{% endfor %}{{ a }}',
    });
    for (const templateId of [loop, huge]) {
      const m = await queue({ templateId, userId: user.id });
      const row = await finalRow(m.id);
      expect(row.state).toBe("failed");
      expect(row.reason).toMatch(/^template: .*limit exceeded/);
    }
    const fine = await template({ subject: "fine", text: "ok" });
    const m = await queue({ templateId: fine, userId: user.id });
    expect((await finalRow(m.id)).state).toBe("sent");
    expect(worker.child.exitCode).toBeNull();
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
});
