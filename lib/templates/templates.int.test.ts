import { describe, expect, it } from "vitest";
import { api, sql } from "@/scripts/test/helpers";
import { waitFor } from "@/scripts/test/worker";
import {
  finalRow,
  group,
  messageRow,
  newUser,
  p,
  queue,
  sink,
  template,
  useMessagesProject,
  worker,
} from "@/test/fixtures/messages";

/*
 * Templates: compiled on save, and the engine's limits at send time (a hostile template stops with a
 * clear reason and the worker goes on; a render out of time is retried, a bounded number of times).
 */
// Small test-send budgets, read by this file's server.
process.env.RATE_LIMIT_TEST_SENDS = "4/3600";
process.env.RATE_LIMIT_TEST_SENDS_TO = "2/3600";
// A small render budget (previews, message views): two a second, four at once.
process.env.RATE_LIMIT_RENDERS = "2:4";
// Retries 2 s apart, so a test can change a user between a first attempt and its retry.
useMessagesProject("relay_messages_templates", { MESSAGES_RETRY_BASE_MS: "2000" });

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

  it("previews the locale asked for, whatever the user's own, and the default variant for null", async () => {
    const id = await template({ subject: "Hello", locales: { de: { subject: "Hallo" }, fr: { subject: "Bonjour" } } });
    const user = await newUser({ locale: "fr" });
    const preview = (locale?: string | null) =>
      api("POST", p.admin(`/templates/${id}/preview`), {
        key: p.keys.editor,
        body: { user_id: user.id, ...(locale !== undefined ? { locale } : {}) },
      });
    const own = await preview();
    expect([own.body.locale, own.body.subject]).toEqual(["fr", "Bonjour"]);
    const de = await preview("de-AT");
    expect([de.status, de.body.locale, de.body.subject]).toEqual([200, "de", "Hallo"]);
    const fallback = await preview(null);
    expect([fallback.body.locale, fallback.body.subject]).toEqual([null, "Hello"]);
    expect((await preview("not a locale")).status).toBe(400);
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
      // Memory is not the clock: no retry.
      expect(row.reason).toMatch(/^template: memory alloc limit exceeded/);
      expect(row.attempts).toBe(0);
    }
    const fine = await template({ subject: "fine", text: "ok" });
    const m = await queue({ templateId: fine, userId: user.id });
    expect((await finalRow(m.id)).state).toBe("sent");
    expect(worker.child.exitCode).toBeNull();
  });

  it("retries a render that ran out of time, and fails one that always does after a bounded number of attempts", async () => {
    // Nine million steps within the memory limit: only the clock stops it.
    const slow = "{% for i in (1..user.data.n) %}{% for j in (1..3000) %}{% endfor %}{% endfor %}done";
    const busy = await newUser({ data: { n: 3000 } });
    const templateId = await template({ subject: "slow", text: slow });
    // The same template is sound for a user with few steps, as a starved worker's sound template is on
    // a later try: the first attempt runs out of time, the user changes, the retry goes out.
    const m = await queue({ templateId, userId: busy.id });
    const retrying = await waitFor(
      async () => {
        const r = await messageRow(m.id);
        return r.attempts >= 1 && r;
      },
      30_000,
      "a first attempt out of time",
    );
    expect(retrying.state).toBe("queued");
    expect(retrying.reason).toMatch(/^template: template render limit exceeded.*retrying \(attempt 1 of 3\)/);
    await sql`update users set data = '{"n": 1}' where id = ${busy.id}`;
    expect(await finalRow(m.id)).toMatchObject({ state: "sent", attempts: 2 });

    // Always out of time: three attempts with backoff, then failed with why.
    const hostile = await newUser({ data: { n: 3000 } });
    const again = await queue({ templateId, userId: hostile.id });
    const row = await finalRow(again.id);
    expect(row.state).toBe("failed");
    expect(row.attempts).toBe(3);
    expect(row.reason).toMatch(/render limit exceeded.* on each of 3 attempts: the template takes too long to render$/);
    expect(sink.to(hostile.email!)).toHaveLength(0);
    expect(worker.child.exitCode).toBeNull();
  });

  it("previews and sends a template of many `<a` and no `>` in well under a second, the web live meanwhile", async () => {
    const user = await newUser();
    // 65,536 tags made in a few steps (a doubling string renders in no time): the regex this replaced
    // took seconds over them (a minute over 333,000), holding the web process.
    const templateId = await template({
      subject: "tags",
      html: '{% assign s = "<a " %}{% for i in (1..16) %}{% assign s = s | append: s %}{% endfor %}{{ s | raw }}',
    });
    const started = Date.now();
    const [preview, live] = await Promise.all([
      api("POST", p.admin(`/templates/${templateId}/preview`), { key: p.keys.support, body: { user_id: user.id } }),
      (async () => {
        await new Promise((r) => setTimeout(r, 20));
        const t = Date.now();
        const res = await api("GET", "/api/health/live");
        return { status: res.status, ms: Date.now() - t };
      })(),
    ]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(live.status).toBe(200);
    expect(live.ms).toBeLessThan(1_500);
    // Rendered in time, or refused with the limit named: never held.
    if (preview.status === 200) expect(preview.body.html).toHaveLength(3 * 65_536);
    else expect(preview.body.detail).toMatch(/render limit exceeded/);
    const m = await queue({ templateId, userId: user.id });
    const row = await finalRow(m.id);
    expect(["sent", "failed"]).toContain(row.state);
    if (row.state === "failed") expect(row.reason).toMatch(/render limit exceeded/);
  });

  it("shows a role below editor placeholders, never working unsubscribe, preference or tracked links", async () => {
    const user = await newUser();
    const templateId = await template({
      subject: "links",
      text: "Stop: {{ unsubscribe_url }} Prefs: {{ preferences_url }}",
      html: '<a href="https://acme.example/offer">Offer</a> <a href="{{ unsubscribe_url }}">Stop</a>',
    });
    const preview = (key: string) =>
      api("POST", p.admin(`/templates/${templateId}/preview`), { key, body: { user_id: user.id } });
    const support = await preview(p.keys.support);
    expect(support.status).toBe(200);
    expect(support.body.text).toMatch(
      /^Stop: https?:\/\/[^/\s]+\/u\/preview Prefs: https?:\/\/[^/\s]+\/preferences\/preview$/,
    );
    expect(support.body.html).toMatch(
      /^<a href="https:\/\/acme\.example\/offer">Offer<\/a> <a href="https?:\/\/[^/"]+\/u\/preview">Stop<\/a>$/,
    );
    const editor = await preview(p.keys.editor);
    expect(editor.body.html).toMatch(/\/l\/[A-Za-z0-9_.-]{20,}/);
    expect(editor.body.text).not.toContain("/u/preview");
    // The message view too: the support key reads a sent message's content with placeholders.
    const m = await queue({ templateId, userId: user.id });
    await finalRow(m.id);
    const view = await api("GET", p.admin(`/messages/${m.id}`), { key: p.keys.support });
    expect(view.status).toBe(200);
    expect(view.body.content.text).toContain("/u/preview");
    expect(view.body.content.html).not.toContain("/l/");
  });

  it("limits previews per project: past the render budget a 429 problem with Retry-After", async () => {
    const user = await newUser();
    const templateId = await template({ subject: "budget", text: "hi" });
    const preview = () =>
      api("POST", p.admin(`/templates/${templateId}/preview`), { key: p.keys.support, body: { user_id: user.id } });
    // The file's earlier previews may have spent the budget: one answered first, then ten sent at once
    // spend it (2 a second, 4 at once) whatever a preview takes on a busy machine.
    await waitFor(async () => (await preview()).status === 200, 15_000, "a preview within the budget");
    const answers = await Promise.all(Array.from({ length: 10 }, preview));
    const statuses = answers.map((r) => r.status);
    const limited = answers.find((r) => r.status === 429);
    expect(limited, statuses.join(",")).toBeDefined();
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited!.body.detail).toMatch(/previews for this project/);
  });

  it("refuses an SMS body longer than 1,600 characters at save, naming the part", async () => {
    const long = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: { name: "long sms", channel: "sms", transactional: true, text: "x".repeat(1601) },
    });
    expect(long.status).toBe(400);
    expect(long.body.errors[0]).toEqual({ path: "text", message: "at most 1600 characters for SMS" });
    const locale = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: {
        name: "long sms 2",
        channel: "sms",
        transactional: true,
        text: "hi",
        locales: { de: { text: "y".repeat(2000) } },
      },
    });
    expect(locale.status).toBe(400);
    expect(locale.body.errors[0].path).toBe("locales.de.text");
  });

  it("limits test sends per recipient and per project with a 429 problem and Retry-After", async () => {
    // Test sends leave from the server (the worker sends the rest): through a provider on the sink.
    const provider = await api("POST", p.admin("/providers"), {
      key: p.keys.admin,
      body: {
        channel: "email",
        kind: "smtp",
        name: "Sink",
        url: `smtp://127.0.0.1:${sink.port}`,
        from: "t@relay.example.test",
      },
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const templateId = await template({ subject: "Test {{ user.email }}", text: "t" });
    const send = (to: string) =>
      api("POST", p.admin(`/templates/${templateId}/test`), { key: p.keys.editor, body: { to } });
    // A refused address spends neither budget: counted after validation, as it is sent to.
    for (let i = 0; i < 5; i++) {
      const bad = await send("not an address");
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].path).toBe("to");
    }
    const inbox = `inbox-${crypto.randomUUID().slice(0, 8)}@example.com`;
    for (let i = 0; i < 2; i++) expect((await send(inbox)).body).toMatchObject({ sent: true });
    const third = await send(inbox.toUpperCase());
    expect(third.status).toBe(429);
    expect(third.headers.get("content-type")).toContain("application/problem+json");
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(third.body.detail).toMatch(/test sends to this address/);
    expect(sink.to(inbox)).toHaveLength(2);
    // Every request counts against the project's four, a refused one too: one more is allowed.
    const other = `other-${crypto.randomUUID().slice(0, 8)}@example.com`;
    expect((await send(other)).status).toBe(200);
    const fifth = await send(`third-${crypto.randomUUID().slice(0, 8)}@example.com`);
    expect(fifth.status).toBe(429);
    expect(fifth.body.detail).toMatch(/test sends for this project/);
  });
});
