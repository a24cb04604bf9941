import { createServer, type Server } from "node:http";
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
// Providers on 127.0.0.1 (the sink, the Twilio stand-in) are allowed for this file's server and worker only.
process.env.DESTINATIONS_ALLOW_HOSTS = "127.0.0.1";
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

describe("providers", () => {
  let twilio: Server;
  let twilioPort = 0;
  const texts: { to: string; body: string; auth: string }[] = [];
  let answers: number[] = [];

  beforeAll(async () => {
    // A loopback stand-in for Twilio's Messages API: form body in, 201 with a sid out (or a queued status).
    twilio = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const status = answers.shift() ?? 201;
        const form = new URLSearchParams(body);
        if (status === 201)
          texts.push({ to: form.get("To")!, body: form.get("Body")!, auth: req.headers.authorization ?? "" });
        res.writeHead(status, { "content-type": "application/json" });
        res.end(
          JSON.stringify(status === 201 ? { sid: `SM${texts.length}` } : { code: 20429, message: "Too Many Requests" }),
        );
      });
    });
    await new Promise<void>((r) => twilio.listen(0, "127.0.0.1", r));
    twilioPort = (twilio.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => twilio.close(() => r())));

  it("keeps secrets sealed: never in an answer, a log line or the request log", async () => {
    const password = `pw-${crypto.randomUUID()}`;
    const token = `tok-${crypto.randomUUID()}`;
    const bad = await api("POST", p.admin("/providers"), {
      key: p.keys.admin,
      body: {
        channel: "email",
        kind: "smtp",
        name: "meta",
        url: `smtp://u:${password}@169.254.169.254:25`,
        from: "a@b.example",
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("url");
    const email = await api("POST", p.admin("/providers"), {
      key: p.keys.admin,
      body: {
        channel: "email",
        kind: "smtp",
        name: "Sink",
        url: `smtp://user:${password}@127.0.0.1:${sink.port}`,
        from: "Sink <sink@relay.example.test>",
      },
    });
    expect(email.status, JSON.stringify(email.body)).toBe(201);
    expect(email.body.url).toBe(`smtp://user:****@127.0.0.1:${sink.port}`);
    const sms = await api("POST", p.admin("/providers"), {
      key: p.keys.admin,
      body: {
        channel: "sms",
        kind: "twilio",
        name: "Stand-in",
        account_sid: "AC123",
        auth_token: token,
        from: "+15005550006",
        api_base: `http://127.0.0.1:${twilioPort}`,
      },
    });
    expect(sms.status).toBe(201);
    const denied = await api("POST", p.admin("/providers"), {
      key: p.keys.editor,
      body: { channel: "sms", kind: "twilio", name: "x", account_sid: "AC1", auth_token: token, from: "+1" },
    });
    expect(denied.status).toBe(403);
    const list = await api("GET", p.admin("/providers"), { key: p.keys.support });
    const everything = JSON.stringify([email.body, sms.body, list.body, bad.body, denied.body]);
    expect(everything).not.toContain(password);
    expect(everything).not.toContain(token);
    const logged =
      await sql`select coalesce(string_agg(coalesce(body, '') || coalesce(errors::text, ''), ' '), '') as t from api_requests where project_id = ${p.projectId}`;
    expect(String(logged[0]!.t)).not.toContain(password);
    expect(String(logged[0]!.t)).not.toContain(token);
    const sealed =
      await sql`select secret_sealed, config::text as config from message_providers where project_id = ${p.projectId}`;
    for (const r of sealed) expect(`${r.secret_sealed} ${r.config}`).not.toMatch(new RegExp(`${password}|${token}`));
    expect(worker.output()).not.toContain(password);
  });

  it("sends SMS through a Twilio-compatible API, retrying a 429", async () => {
    const group = await api("POST", p.admin("/subscription-groups"), {
      key: p.keys.admin,
      body: { name: "Texts", channel: "sms" },
    });
    const user = await newUser({ phone: "+4915112345678" });
    const templateId = (
      await api("POST", p.admin("/templates"), {
        key: p.keys.editor,
        body: { name: "sms-1", channel: "sms", subscription_group: group.body.id, text: "Code for {{ user.phone }}" },
      })
    ).body.id;
    answers = [429];
    const m = await queue({ templateId, userId: user.id });
    const row = await finalRow(m.id);
    expect(row).toMatchObject({ state: "sent", attempts: 2, recipient: "+4915112345678" });
    const got = texts.filter((t) => t.to === "+4915112345678");
    expect(got).toHaveLength(1);
    expect(got[0]!.body).toBe("Code for +4915112345678");
    expect(Buffer.from(got[0]!.auth.slice("Basic ".length), "base64").toString()).toMatch(/^AC123:tok-/);
  });
});

describe("broadcasts", () => {
  async function listOf(userIds: string[]) {
    const list = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: `l-${crypto.randomUUID().slice(0, 8)}`, kind: "static" },
    });
    expect(list.status).toBe(201);
    for (const u of userIds)
      await sql`insert into list_members (project_id, list_id, user_id) values (${p.projectId}, ${list.body.id}, ${u})`;
    return list.body.id as string;
  }
  const broadcast = (id: string) =>
    api("GET", p.admin(`/broadcasts/${id}`), { key: p.keys.support }).then((r) => r.body);

  it("sends once to each member, skips with reasons, and is done only when every message is final", async () => {
    const users = [await newUser(), await newUser(), await newUser({ email: null })];
    const listId = await listOf(users.map((u) => u.id));
    const templateId = await template({ subject: "Broadcast {{ user.email }}", text: "b" });
    const b = await api("POST", p.admin("/broadcasts"), {
      key: p.keys.editor,
      body: { name: "b1", template_id: templateId, list_id: listId },
    });
    expect(b.status).toBe(201);
    const done = await waitFor(
      async () => {
        const v = await broadcast(b.body.id);
        return v.state === "done" && v;
      },
      30_000,
      "broadcast done",
    );
    expect(done.counts).toEqual({ recipients: 3, queued: 0, sent: 2, skipped: 1, failed: 0 });
    for (const u of users.slice(0, 2)) expect(sink.to(u.email!)).toHaveLength(1);
    const log = await api("GET", p.admin(`/messages?broadcast_id=${b.body.id}&state=skipped`), { key: p.keys.support });
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({ reason: "no_contact", user_id: users[2]!.id });
  });

  it("cancels while sending: the rest are skipped as cancelled, none is sent twice", async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => newUser()));
    const listId = await listOf(users.map((u) => u.id));
    const templateId = await template({ subject: "Slow", text: "s" });
    const b = await api("POST", p.admin("/broadcasts"), {
      key: p.keys.editor,
      body: { name: "slow", template_id: templateId, list_id: listId, rate_per_second: 1 },
    });
    await waitFor(async () => (await broadcast(b.body.id)).counts.sent >= 1, 30_000, "a first message");
    const cancelled = await api("POST", p.admin(`/broadcasts/${b.body.id}/cancel`), { key: p.keys.editor });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe("cancelled");
    const final = await waitFor(
      async () => {
        const v = await broadcast(b.body.id);
        return v.counts.queued === 0 && v.finished_at && v;
      },
      30_000,
      "every message final",
    );
    expect(final.state).toBe("cancelled");
    expect(final.counts.sent + final.counts.skipped).toBe(8);
    expect(final.counts.skipped).toBeGreaterThan(0);
    for (const u of users) expect(sink.to(u.email!).length).toBeLessThanOrEqual(1);
    expect(users.filter((u) => sink.to(u.email!).length === 1)).toHaveLength(final.counts.sent);
  });
});
