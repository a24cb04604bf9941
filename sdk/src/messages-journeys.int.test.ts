import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { api, baseUrl, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { SmtpSink } from "../../scripts/test/smtp-sink";
import { startWorker, type TestWorker, waitFor } from "../../scripts/test/worker";
import { RelayConflictError, RelayJourneys, RelayMessages, RelayValidationError } from "./index";

/*
 * The SDK's admin clients for messages and journeys against the real server, a real worker and a real
 * SMTP exchange (the project's own SMTP provider is the sink). Time is moved in SQL, never slept through.
 */
vi.setConfig({ testTimeout: 180_000 });

let p: TestProject;
let sink: SmtpSink;
let worker: TestWorker;
const client = (role: "support" | "editor" | "admin") => ({ apiKey: p.keys[role], baseUrl, projectId: p.projectId });

async function user(externalId: string) {
  const res = await api("POST", p.client("/users"), {
    key: p.keys.client,
    body: { identifier: [{ external_id: externalId }], email: `${externalId}@example.com`, data: { plan: "pro" } },
  });
  expect(res.status).toBeLessThan(300);
  return res.body.id as string;
}

beforeAll(async () => {
  sink = await new SmtpSink().listen();
  p = await createTestProject("sdk-messages-journeys");
  worker = await startWorker(inject("databaseUrl"), {
    DESTINATIONS_ALLOW_HOSTS: "127.0.0.1",
    MESSAGES_POLL_MS: "100",
    JOURNEY_POLL_MS: "50",
  });
}, 240_000);
afterAll(async () => {
  await worker?.stop();
  await sink?.close();
});

describe("RelayMessages (providers, templates, broadcasts, the messages log)", () => {
  it("sends through the project's provider: a preview, a test send, and a broadcast to a one-member list reaching done", async () => {
    const admin = new RelayMessages(client("admin"));
    const editor = new RelayMessages(client("editor"));
    const support = new RelayMessages(client("support"));

    const provider = await admin.providers.create({
      channel: "email",
      kind: "smtp",
      name: "sink",
      url: `smtp://127.0.0.1:${sink.port}`,
      from: "Relay SDK <sdk@relay.example.test>",
    });
    expect(provider).toMatchObject({ channel: "email", kind: "smtp", from: "Relay SDK <sdk@relay.example.test>" });
    await expect(
      admin.providers.create({ channel: "email", kind: "smtp", name: "again", url: provider.url!, from: "a@b.test" }),
    ).rejects.toBeInstanceOf(RelayConflictError);
    expect((await admin.providers.update(provider.id, { name: "the sink" })).name).toBe("the sink");
    expect((await support.providers.get(provider.id)).name).toBe("the sink");
    expect((await support.providers.list()).data.map((x) => x.id)).toEqual([provider.id]);

    await expect(
      editor.templates.create({ name: "broken", channel: "email", transactional: true, html: "{% if x %}" }),
    ).rejects.toBeInstanceOf(RelayValidationError);
    const template = await editor.templates.create({
      name: "hello",
      channel: "email",
      transactional: true,
      subject: "Hi {{ user.data.plan }}",
      text: "Welcome, {{ journey.note }}.",
    });
    const uid = await user(`sdk-m-${crypto.randomUUID().slice(0, 8)}`);
    const preview = await support.templates.preview(template.id, { user_id: uid, context: { note: "reader" } });
    expect(preview).toMatchObject({ subject: "Hi pro", text: "Welcome, reader." });
    const changed = await editor.templates.update(template.id, { subject: "Hello {{ user.data.plan }}" });
    expect(changed.subject).toBe("Hello {{ user.data.plan }}");
    expect((await support.templates.get(template.id)).subject).toBe(changed.subject);
    const sent = await editor.templates.test(template.id, { to: "tester@example.com", user_id: uid });
    expect(sent, JSON.stringify(sent)).toMatchObject({ sent: true, reason: null });
    expect(sink.to("tester@example.com")[0]!.subject).toBe("[test] Hello pro");
    expect((await support.templates.list({ channel: "email" })).data.map((t) => t.id)).toEqual([template.id]);

    const list = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: "one member", kind: "static" },
    });
    await sql`insert into list_members (project_id, list_id, user_id) values (${p.projectId}, ${list.body.id}, ${uid})`;
    // Scheduled later, changed, cancelled and deleted before it sends.
    const later = await editor.broadcasts.create({
      name: "later",
      template_id: template.id,
      list_id: list.body.id,
      send_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect((await editor.broadcasts.update(later.id, { name: "later, renamed" })).name).toBe("later, renamed");
    expect((await editor.broadcasts.cancel(later.id)).state).toBe("cancelled");
    await editor.broadcasts.delete(later.id);

    const now = await editor.broadcasts.create({ name: "now", template_id: template.id, list_id: list.body.id });
    const done = await waitFor(
      async () => {
        const b = await support.broadcasts.get(now.id);
        return b.state === "done" && b;
      },
      60_000,
      "broadcast done",
    );
    expect(done.counts).toEqual({ recipients: 1, queued: 0, sent: 1, skipped: 0, failed: 0 });
    expect(sink.to(`${(await sql`select email from users where id = ${uid}`)[0]!.email}`)).toHaveLength(1);
    expect((await support.broadcasts.list({ state: "done" })).data.map((b) => b.id)).toEqual([now.id]);
    const log = await support.messages.list({ broadcast_id: now.id });
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ state: "sent", user_id: uid, subject: "Hello pro" });
    const detail = await support.messages.get(log.data[0]!.id);
    expect(detail.content?.subject).toBe("Hello pro");

    const spare = await editor.templates.create({ name: "spare", channel: "email", transactional: true, text: "x" });
    await editor.templates.delete(spare.id);
    expect((await support.templates.list()).data.map((t) => t.id)).toEqual([template.id]);
    await admin.providers.delete(provider.id);
    expect((await support.providers.list()).data).toEqual([]);
  });
});

describe("RelayJourneys (journeys with steps, entries and their paths)", () => {
  it("runs an entry through a delay and an update, reads its path, ends another entry, pauses and deletes", async () => {
    const editor = new RelayJourneys(client("editor"));
    const support = new RelayJourneys(client("support"));
    await expect(
      editor.create({
        name: "bad",
        entrances: [{ kind: "event", event_name: "SDK start" }],
        steps: [{ key: "a", kind: "delay", duration: "1 day", next: "nowhere" }],
      }),
    ).rejects.toBeInstanceOf(RelayValidationError);
    const j = await editor.create({
      name: "SDK journey",
      entrances: [{ kind: "event", event_name: "SDK start" }],
      steps: [
        { key: "pause", kind: "delay", duration: "1 day" },
        { key: "mark", kind: "update", data: { sdk_journey: true } },
      ],
    });
    expect(j.steps.map((s) => s.key)).toEqual(["pause", "mark"]);
    const ext = [`sdk-j-${crypto.randomUUID().slice(0, 8)}`, `sdk-k-${crypto.randomUUID().slice(0, 8)}`];
    const [a, b] = [await user(ext[0]!), await user(ext[1]!)];
    const tracked = await api("POST", p.client("/users/events"), {
      key: p.keys.client,
      body: ext.map((external_id) => ({ name: "SDK start", identifier: [{ external_id }], data: {} })),
    });
    expect(tracked.status, JSON.stringify(tracked.body)).toBeLessThan(300);
    let seen: unknown;
    const waiting = await waitFor(
      async () => {
        const { data } = await support.entries(j.id, { step_key: "pause" });
        seen = data;
        return data.length === 2 && data.every((e) => e.state === "waiting") && data;
      },
      60_000,
      "both entries waiting at the delay",
    ).catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify(seen)}`);
    });
    const entryA = waiting.find((e) => e.user_id === a)!;
    const entryB = waiting.find((e) => e.user_id === b)!;
    await sql`update journey_entries set wake_at = now() - interval '1 second' where project_id = ${p.projectId} and id = ${entryA.id}`;
    const passed = await waitFor(
      async () => {
        const e = await support.entry(j.id, entryA.id);
        return e.state === "exited" && e;
      },
      60_000,
      "entry A through",
    );
    expect(passed.path.map((s) => s.step_key)).toEqual(["pause", "mark"]);
    expect(passed.path.map((s) => s.kind)).toEqual(["delay", "update"]);
    expect(passed.path[0]!.outcome).toMatch(/^delayed/);
    expect((await sql`select data from users where id = ${a}`)[0]!.data).toMatchObject({ sdk_journey: true });

    await editor.exitEntry(j.id, entryB.id);
    expect((await support.entry(j.id, entryB.id)).state).toBe("exited");
    expect((await sql`select data from users where id = ${b}`)[0]!.data).not.toHaveProperty("sdk_journey");

    expect((await editor.update(j.id, { paused: true })).paused).toBe(true);
    expect((await support.get(j.id)).paused).toBe(true);
    expect((await support.list()).data.map((x) => x.id)).toContain(j.id);
    await editor.delete(j.id);
    expect((await support.list()).data.map((x) => x.id)).not.toContain(j.id);
  });
});
