import { describe, expect, it } from "vitest";
import { api, createTestProject, sql } from "../../scripts/test/helpers";
import { stallingSmtp } from "../../scripts/test/smtp-sink";
import { startWorker, waitFor } from "../../scripts/test/worker";
import {
  finalRow,
  messageRow,
  newUser,
  p,
  sink,
  template,
  useMessagesProject,
  worker,
  workerEnv,
} from "../../test/fixtures/messages";

/*
 * The transactional send API over HTTP against a real worker and a real SMTP sink: `data` in the template,
 * `to` for transactional templates only, Idempotency-Key replays (also under 20 concurrent requests and
 * across a worker SIGKILLed mid-send), 404s, the sending rules for a non-transactional template, roles.
 */
// The retention loop every second, so the sweep of expired keys is seen within the test.
useMessagesProject("relay_messages_send_api", { RETENTION_INTERVAL: "1s" });

const send = (body: unknown, opts: { key?: string; idem?: string; path?: string } = {}) =>
  api("POST", opts.path ?? p.client("/messages"), {
    key: opts.key ?? p.keys.client,
    body,
    headers: opts.idem ? { "idempotency-key": opts.idem } : {},
  });
const receipt = (body: Record<string, unknown> = {}) =>
  template({ transactional: true, subscription_group: null, subject: "Receipt {{ data.order_id }}", ...body });
const unsubscribe = (externalId: string, group: string) =>
  api("POST", p.client("/users/subscriptions"), {
    key: p.keys.client,
    body: { identifier: [{ external_id: externalId }], subscriptions: [{ group, state: "unsubscribed" }] },
  });
const messagesOf = async (userId: string) =>
  (await sql`select count(*)::int as n from messages where project_id = ${p.projectId} and user_id = ${userId}`)[0]!
    .n as number;

describe("POST /messages", () => {
  it("sends a template with `data` rendered, by id on the project path and by name on the key-scoped path", async () => {
    const user = await newUser({ data: { first_name: "Ada" } });
    const name = `receipt-${crypto.randomUUID().slice(0, 8)}`;
    const templateId = await receipt({
      name,
      text: "Hi {{ user.data.first_name }}, order {{ data.order_id }}: {% for i in data.items %}{{ i.sku }} {% endfor %}",
    });
    const data = { order_id: "A-42", items: [{ sku: "tea" }, { sku: "cup" }] };
    const res = await send({ template_id: templateId, user_id: user.id, data });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ id: expect.any(String), state: "queued" });
    expect(await finalRow(res.body.id)).toMatchObject({
      state: "sent",
      recipient: user.email,
      subject: "Receipt A-42",
    });
    const mail = sink.to(user.email!)[0]!;
    expect(mail.subject).toBe("Receipt A-42");
    expect(mail.text).toContain("Hi Ada, order A-42: tea cup");
    expect(mail.messageId).toBe(`<${res.body.id}@relay.example.test>`);

    const byName = await send(
      { template: name.toUpperCase(), identifier: [{ external_id: user.externalId }], data: { order_id: "B-7" } },
      { path: "/api/client/messages" },
    );
    expect(byName.status, JSON.stringify(byName.body)).toBe(202);
    expect(await finalRow(byName.body.id)).toMatchObject({ state: "sent", subject: "Receipt B-7" });
  });

  it("takes `to` instead of the user's address for a transactional template only; 422 otherwise, nothing written", async () => {
    const user = await newUser();
    const res = await send({ template_id: await receipt({ text: "r" }), user_id: user.id, to: "Other@Example.org" });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(await finalRow(res.body.id)).toMatchObject({ state: "sent", recipient: "Other@Example.org" });
    expect(sink.to("other@example.org")).toHaveLength(1);
    expect(sink.to(user.email!)).toHaveLength(0);

    const news = await template({ subject: "News", text: "n" });
    const refused = await send({ template_id: news, user_id: user.id, to: "other@example.org" });
    expect(refused.status).toBe(422);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.body.errors).toEqual([{ path: "to", message: "only for transactional templates" }]);
    const bad = await send({ template_id: await receipt(), user_id: user.id, to: "not an address" });
    expect(bad.status).toBe(400);
    expect(await messagesOf(user.id)).toBe(1);
  });

  it("answers a retried Idempotency-Key with the first answer and sends nothing; another body is 422", async () => {
    const user = await newUser();
    const templateId = await receipt({ text: "once" });
    const idem = `order-${crypto.randomUUID()}`;
    const body = { template_id: templateId, user_id: user.id, data: { order_id: "C-1", total: 12 } };
    const first = await send(body, { idem });
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    await finalRow(first.body.id);
    // The same body with its keys in another order is the same request.
    const again = await send(
      { data: { total: 12, order_id: "C-1" }, user_id: user.id, template_id: templateId },
      { idem },
    );
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const other = await send({ ...body, data: { order_id: "C-2" } }, { idem });
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatch(/another request body/);
    expect(await messagesOf(user.id)).toBe(1);
    expect(sink.to(user.email!)).toHaveLength(1);
    // Per project: another project may use the same key for its own request.
    const q = await createTestProject("send-api-other");
    const theirs = await api("POST", q.client("/messages"), {
      key: q.keys.client,
      body: { template_id: templateId, user_id: user.id },
      headers: { "idempotency-key": idem },
    });
    expect(theirs.status).toBe(404);

    const long = await send(body, { idem: "k".repeat(256) });
    expect(long.status).toBe(400);
    expect(long.body.errors[0].path).toBe("Idempotency-Key");
  });

  it("makes one message and one mail of 20 concurrent requests with one key", async () => {
    const user = await newUser();
    const templateId = await receipt({ text: "concurrent" });
    const idem = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => send({ template_id: templateId, user_id: user.id, data: { n: 1 } }, { idem })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    await finalRow([...ids][0]!);
    expect(await messagesOf(user.id)).toBe(1);
    expect(sink.to(user.email!)).toHaveLength(1);
  });

  it("sweeps keys past 24 hours; an expired key not yet swept starts a new request", async () => {
    const user = await newUser();
    const templateId = await receipt({ text: "expired" });
    const old = await send({ template_id: templateId, user_id: user.id }, { idem: "old-key" });
    const kept = await send({ template_id: templateId, user_id: user.id }, { idem: "kept-key" });
    await sql`update idempotency_keys set created_at = now() - interval '25 hours'
      where project_id = ${p.projectId} and key = 'old-key'`;
    // Taken over before the sweep: a new message, even with another body.
    const reused = await send({ template_id: templateId, user_id: user.id, data: { x: 1 } }, { idem: "old-key" });
    expect(reused.status).toBe(202);
    expect(reused.body.id).not.toBe(old.body.id);
    await sql`update idempotency_keys set created_at = now() - interval '25 hours'
      where project_id = ${p.projectId} and key = 'old-key'`;
    await waitFor(
      async () => !(await sql`select 1 from idempotency_keys where key = 'old-key'`).length,
      30_000,
      "the expired key swept",
    );
    const left = await sql`select key from idempotency_keys where project_id = ${p.projectId} and key = 'kept-key'`;
    expect(left).toHaveLength(1);
    expect(kept.status).toBe(202);
  });

  it("answers 404 for an unknown template or user, writing nothing", async () => {
    const user = await newUser();
    const templateId = await receipt();
    const cases = [
      { template_id: crypto.randomUUID(), user_id: user.id },
      { template: "no such template", user_id: user.id },
      { template_id: templateId, user_id: crypto.randomUUID() },
      { template_id: templateId, identifier: [{ external_id: "nobody-here" }] },
    ];
    for (const body of cases) {
      const res = await send(body, { idem: crypto.randomUUID() });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
    }
    expect(await messagesOf(user.id)).toBe(0);
    expect(
      (
        await sql`select count(*)::int as n from idempotency_keys where project_id = ${p.projectId} and answer is null`
      )[0]!.n,
    ).toBe(0);
    const both = await send({ template_id: templateId, template: "x", user_id: user.id });
    expect(both.status).toBe(400);
  });

  it("skips a non-transactional template for an unsubscribed user, as every send does", async () => {
    const user = await newUser();
    const changed = await api("POST", p.client("/users/subscriptions"), {
      key: p.keys.client,
      body: {
        identifier: [{ external_id: user.externalId }],
        subscriptions: [{ group: "News", state: "unsubscribed" }],
      },
    });
    expect(changed.status).toBe(200);
    const res = await send({ template_id: await template({ subject: "News", text: "n" }), user_id: user.id });
    expect(res.status).toBe(202);
    expect(res.body.state).toBe("skipped");
    expect(await messageRow(res.body.id)).toMatchObject({ state: "skipped", reason: "unsubscribed" });
    // A transactional one still goes.
    const r = await send({ template_id: await receipt({ text: "r" }), user_id: user.id });
    expect((await finalRow(r.body.id)).state).toBe("sent");
  });

  it("replays a skipped message's answer as skipped; caps and quiet hours hold for a non-transactional template", async () => {
    const user = await newUser({ timezone: "Pacific/Auckland" });
    expect((await unsubscribe(user.externalId, "News")).status).toBe(200);
    const news = await template({ subject: "News", text: "n" });
    const idem = crypto.randomUUID();
    const first = await send({ template_id: news, user_id: user.id }, { idem });
    expect(first.body).toEqual({ id: expect.any(String), state: "skipped" });
    // The key's answer is the decision's, not the queued row it was taken with.
    const again = await send({ template_id: news, user_id: user.id }, { idem });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);

    const other = await newUser({ timezone: "Pacific/Auckland" });
    const promo = await template({ subject: "Promo", text: "p" });
    await api("PATCH", p.admin(""), {
      key: p.keys.admin,
      body: { frequency_cap: { email: { count: 1, per: "1 day" } } },
    });
    try {
      expect((await finalRow((await send({ template_id: promo, user_id: other.id })).body.id)).state).toBe("sent");
      const capped = await send({ template_id: promo, user_id: other.id }, { idem: crypto.randomUUID() });
      expect(capped.body.state).toBe("skipped");
      expect(await messageRow(capped.body.id)).toMatchObject({ state: "skipped", reason: "frequency_cap" });
    } finally {
      await api("PATCH", p.admin(""), { key: p.keys.admin, body: { frequency_cap: null } });
    }

    // Quiet hours covering every hour but the next one in the user's zone: deferred past their end.
    const local = new Intl.DateTimeFormat("en-GB", { timeZone: "Pacific/Auckland", hour: "2-digit", hourCycle: "h23" });
    const hour = (Number(local.format(new Date())) + 2) % 24;
    const at = (h: number) => `${String(h % 24).padStart(2, "0")}:00`;
    await api("PATCH", p.admin(""), {
      key: p.keys.admin,
      body: { quiet_hours: { start: at(hour + 1), end: at(hour) } },
    });
    try {
      const quiet = await send({ template_id: promo, user_id: (await newUser({ timezone: "Pacific/Auckland" })).id });
      expect(quiet.body.state).toBe("queued");
      const wait = new Date((await messageRow(quiet.body.id)).next_attempt_at).getTime() - Date.now();
      expect(wait).toBeGreaterThan(60 * 60_000);
      // A receipt is not held by quiet hours.
      const r = await send({ template_id: await receipt({ text: "r" }), user_id: other.id });
      expect((await finalRow(r.body.id)).state).toBe("sent");
    } finally {
      await api("PATCH", p.admin(""), { key: p.keys.admin, body: { quiet_hours: null } });
    }
  });

  it("skips a suppressed `to` with reason `suppressed`, when made and when claimed; the user's own suppression does not stop another `to`", async () => {
    const suppress = async (address: string) =>
      expect(
        (await api("POST", p.admin("/suppressions"), { key: p.keys.editor, body: { addresses: [address] } })).status,
      ).toBe(200);
    const tag = crypto.randomUUID().slice(0, 8);
    const gone = `gone-${tag}@example.org`;
    await suppress(gone);
    const user = await newUser();
    const templateId = await receipt({ text: "r" });

    // Decided when the message is made, whatever the case and spaces of `to`.
    const made = await send({ template_id: templateId, user_id: user.id, to: ` Gone-${tag}@Example.org` });
    expect(made.status, JSON.stringify(made.body)).toBe(202);
    expect(made.body.state).toBe("skipped");
    expect(await messageRow(made.body.id)).toMatchObject({ state: "skipped", reason: "suppressed" });

    // Decided again when the sender claims it: suppressed while it waited for its send_at.
    const later = `later-${tag}@example.org`;
    const waiting = await send({
      template_id: templateId,
      user_id: user.id,
      to: later,
      send_at: new Date(Date.now() + 3_000).toISOString(),
    });
    expect(waiting.body.state).toBe("queued");
    await suppress(later);
    expect(await finalRow(waiting.body.id)).toMatchObject({ state: "skipped", reason: "suppressed" });

    // The user's own address suppressed: a `to` elsewhere is not that address, and goes.
    await suppress(user.email!);
    const elsewhere = `elsewhere-${tag}@example.org`;
    const sent = await send({ template_id: templateId, user_id: user.id, to: elsewhere });
    expect(await finalRow(sent.body.id)).toMatchObject({ state: "sent", recipient: elsewhere });
    expect(await send({ template_id: templateId, user_id: user.id })).toMatchObject({
      body: { state: "skipped" },
    });
    expect(sink.to(gone)).toHaveLength(0);
    expect(sink.to(later)).toHaveLength(0);
    expect(sink.to(user.email!)).toHaveLength(0);
    expect(sink.to(elsewhere)).toHaveLength(1);
  });

  it("waits for `send_at`", async () => {
    const user = await newUser();
    const at = new Date(Date.now() + 3_600_000);
    at.setMilliseconds(0);
    const res = await send({ template_id: await receipt(), user_id: user.id, send_at: at.toISOString() });
    expect(res.body.state).toBe("queued");
    expect((await messageRow(res.body.id)).next_attempt_at.toISOString()).toBe(at.toISOString());
  });

  it("refuses a support key and another project's key", async () => {
    const user = await newUser();
    const templateId = await receipt();
    const low = await send({ template_id: templateId, user_id: user.id }, { key: p.keys.support });
    expect(low.status).toBe(403);
    const q = await createTestProject("send-api-foreign");
    const foreign = await send({ template_id: templateId, user_id: user.id }, { key: q.keys.admin });
    expect(foreign.status).toBe(403);
    expect(await messagesOf(user.id)).toBe(0);
  });

  // Last: it replaces the file's worker.
  it("a request retried after the worker was SIGKILLed mid-send still makes one message", async () => {
    await worker.stop();
    const staller = await stallingSmtp();
    const doomed = await startWorker(process.env.DATABASE_URL!, {
      ...workerEnv(),
      SMTP_URL: `smtp://127.0.0.1:${staller.port}`,
      MESSAGES_LEASE_SECONDS: "2",
    });
    let fresh: Awaited<ReturnType<typeof startWorker>> | undefined;
    try {
      const user = await newUser();
      const body = { template_id: await receipt({ text: "killed" }), user_id: user.id, data: { order_id: "K-1" } };
      const idem = crypto.randomUUID();
      const first = await send(body, { idem });
      expect(first.status).toBe(202);
      await waitFor(async () => staller.held.includes(user.email!), 60_000, "the doomed worker mid-send");
      await doomed.stop("SIGKILL");
      const retried = await send(body, { idem });
      expect(retried.status).toBe(202);
      expect(retried.body).toEqual(first.body);
      fresh = await startWorker(process.env.DATABASE_URL!, workerEnv());
      expect(await finalRow(first.body.id)).toMatchObject({ state: "sent", subject: "Receipt K-1" });
      expect(await messagesOf(user.id)).toBe(1);
      expect(sink.to(user.email!)).toHaveLength(1);
    } finally {
      await doomed.stop("SIGKILL");
      await fresh?.stop();
      staller.close();
    }
  });
});
