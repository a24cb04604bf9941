import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { systemContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { queueMessage } from "@/lib/messages/queue-message";
import { api, createTestProject, sql, type TestProject } from "@/scripts/test/helpers";
import { waitFor } from "@/scripts/test/worker";
import { finalRow, newUser, p, queue, sink, template, useMessagesProject } from "@/test/fixtures/messages";

/*
 * The message sender on the leased runner (lib/outbound): text the database refuses (a NUL from a
 * provider's refusal, a lone surrogate in a rendered subject) never jams it, a message throttled for
 * longer than its lease is sent once, another project's message is not held behind a throttled broadcast,
 * and an unsubscribe during the throttle's wait stops the send. A short lease and a small budget make
 * each of these show within seconds.
 */
useMessagesProject("relay_messages_leased", { MESSAGES_LEASE_SECONDS: "4", MESSAGES_MAX_IN_FLIGHT: "8" });

/** A project of its own with an e-mail group, a provider to the sink at one message a second, and a list. */
async function throttledProject(name: string) {
  const t = await createTestProject(name);
  const group = await api("POST", t.admin("/subscription-groups"), {
    key: t.keys.admin,
    body: { name: "News", channel: "email" },
  });
  const provider = await api("POST", t.admin("/providers"), {
    key: t.keys.admin,
    body: {
      channel: "email",
      kind: "smtp",
      name: "Slow sink",
      url: `smtp://127.0.0.1:${sink.port}`,
      from: "Slow <slow@relay.example.test>",
      rate_per_second: 1,
    },
  });
  expect(provider.status, JSON.stringify(provider.body)).toBe(201);
  const templateId = (
    await api("POST", t.admin("/templates"), {
      key: t.keys.editor,
      body: { name: "slow", channel: "email", subscription_group: group.body.id, subject: "Slow", text: "s" },
    })
  ).body.id as string;
  return { t, templateId };
}

async function usersOf(t: TestProject, prefix: string, n: number) {
  return sql<{ id: string; email: string }[]>`
    insert into users (project_id, email, data)
    select ${t.projectId}, ${prefix} || '-' || g || '@example.com', '{}' from generate_series(1, ${n}) g
    returning id, email`;
}

async function broadcastTo(t: TestProject, templateId: string, users: { id: string }[]) {
  const list = await api("POST", t.admin("/lists"), {
    key: t.keys.editor,
    body: { name: `l-${crypto.randomUUID().slice(0, 8)}`, kind: "static" },
  });
  for (const u of users)
    await sql`insert into list_members (project_id, list_id, user_id) values (${t.projectId}, ${list.body.id}, ${u.id})`;
  const b = await api("POST", t.admin("/broadcasts"), {
    key: t.keys.editor,
    body: { name: "b", template_id: templateId, list_id: list.body.id },
  });
  expect(b.status, JSON.stringify(b.body)).toBe(201);
  return b.body.id as string;
}

/** Waits until the broadcast is done: started, and none of its messages queued. */
const done = (t: TestProject, broadcastId: string) =>
  waitFor(
    async () =>
      (await sql`select state from broadcasts where project_id = ${t.projectId} and id = ${broadcastId}`)[0]!.state ===
      "done",
    60_000,
    "the broadcast done",
  );

const queuedOf = async (t: TestProject, broadcastId: string) =>
  Number(
    (
      await sql`select count(*)::int as n from messages where project_id = ${t.projectId}
        and broadcast_id = ${broadcastId} and state = 'queued'`
    )[0]!.n,
  );

/** Every copy at the sink for these addresses carries its own message's Message-ID, and each came once. */
async function expectOneCopyEach(t: TestProject, users: { id: string; email: string }[]) {
  const ids = new Map<string, string>();
  for (const r of await sql`select user_id, id from messages where project_id = ${t.projectId}
      and user_id = any(${users.map((u) => u.id)}::uuid[])`)
    ids.set(r.user_id, `<${r.id}@relay.example.test>`);
  for (const u of users) {
    const copies = sink.to(u.email);
    expect(
      copies.map((m) => m.messageId),
      u.email,
    ).toEqual([ids.get(u.id)]);
  }
}

describe("text the database refuses", () => {
  let twilio: Server;
  let twilioPort = 0;
  const requests: string[] = [];

  beforeAll(async () => {
    // A Twilio-speaking service whose every refusal carries a NUL in its message.
    twilio = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        requests.push(new URLSearchParams(body).get("To")!);
        res.writeHead(400, { "content-type": "application/json" });
        res.end('{"code": 21211, "message": "The \'To\' number \\u0000 is not valid", "status": 400}');
      });
    });
    await new Promise<void>((r) => twilio.listen(0, "127.0.0.1", r));
    twilioPort = (twilio.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => twilio.close(() => r())));

  it("records a Twilio refusal holding a NUL: each number is asked once, every message is final", async () => {
    const group = await api("POST", p.admin("/subscription-groups"), {
      key: p.keys.admin,
      body: { name: "Texts", channel: "sms" },
    });
    const sms = await api("POST", p.admin("/providers"), {
      key: p.keys.admin,
      body: {
        channel: "sms",
        kind: "twilio",
        name: "NUL stand-in",
        account_sid: "AC123",
        auth_token: "tok",
        from: "+15005550006",
        api_base: `http://127.0.0.1:${twilioPort}`,
      },
    });
    expect(sms.status).toBe(201);
    const templateId = (
      await api("POST", p.admin("/templates"), {
        key: p.keys.editor,
        body: { name: "sms-nul", channel: "sms", subscription_group: group.body.id, text: "Code" },
      })
    ).body.id;
    const phones = Array.from({ length: 6 }, (_, i) => `+49151000000${i}`);
    const queued = [];
    for (const phone of phones) queued.push(await queue({ templateId, userId: (await newUser({ phone })).id }));
    const rows = await Promise.all(queued.map((m) => finalRow(m.id)));
    for (const row of rows) {
      expect(row.state).toBe("failed");
      expect(row.reason).toContain("21211");
      expect(row.reason).not.toContain("\0");
    }
    for (const phone of phones) expect(requests.filter((to) => to === phone)).toHaveLength(1);
  }, 60_000);

  it.each([
    ["a NUL", '{{ "%00" | url_decode }} news'],
    ["a lone surrogate", '{{ "😀a" | split: "" | first }} news'],
  ])(
    "records a subject rendered with %s: one copy each, every message sent",
    async (_, subject) => {
      const templateId = await template({ subject, text: "t" });
      const users = [await newUser(), await newUser(), await newUser()];
      const queued = [];
      for (const u of users) queued.push(await queue({ templateId, userId: u.id }));
      const rows = await Promise.all(queued.map((m) => finalRow(m.id)));
      for (const row of rows) {
        expect(row.state).toBe("sent");
        expect(row.subject).toBe("\uFFFD news");
      }
      for (const u of users) expect(sink.to(u.email!)).toHaveLength(1);
    },
    60_000,
  );
});

describe("a throttle longer than the lease", () => {
  it("sends a broadcast at one a second, each copy once, though each waits past its lease", async () => {
    const { t, templateId } = await throttledProject("leased-once");
    const users = await usersOf(t, "once", 10);
    const b = await broadcastTo(t, templateId, users);
    await done(t, b);
    await expectOneCopyEach(t, users);
  }, 120_000);

  it("sends another project's message while a throttled broadcast holds its share", async () => {
    const { t, templateId } = await throttledProject("leased-slow");
    const users = await usersOf(t, "slow", 16);
    const b = await broadcastTo(t, templateId, users);
    await waitFor(async () => users.some((u) => sink.to(u.email).length > 0), 30_000, "a first throttled copy");

    // Another project, no throttle: its message finds a slot while the broadcast still has most of its list.
    const other = await createTestProject("leased-other");
    const group = await api("POST", other.admin("/subscription-groups"), {
      key: other.keys.admin,
      body: { name: "News", channel: "email" },
    });
    const otherTemplate = await api("POST", other.admin("/templates"), {
      key: other.keys.editor,
      body: { name: "quick", channel: "email", subscription_group: group.body.id, subject: "Quick", text: "q" },
    });
    const [someone] = await usersOf(other, "quick", 1);
    const m = await withTransaction(getDb(), (tx) =>
      queueMessage(systemContext(tx, other.projectId), {
        templateId: otherTemplate.body.id,
        userId: someone!.id,
        cause: { entryId: crypto.randomUUID(), stepKey: "send-1" },
      }),
    );
    expect((await finalRow(m.id)).state).toBe("sent");
    expect(await queuedOf(t, b)).toBeGreaterThanOrEqual(8);
    await done(t, b);
    await expectOneCopyEach(t, users);
  }, 120_000);

  it("checks an unsubscribe made while messages wait for their slot, right before sending", async () => {
    const { t, templateId } = await throttledProject("leased-unsub");
    const users = await usersOf(t, "unsub", 8);
    const b = await broadcastTo(t, templateId, users);
    await waitFor(async () => users.some((u) => sink.to(u.email).length > 0), 30_000, "a first throttled copy");
    // The messages the sender holds now (claimed, waiting for the throttle): the ones the check is for.
    const held = (
      await sql`select user_id from messages where project_id = ${t.projectId} and broadcast_id = ${b}
        and state = 'queued' and lease_until is not null`
    ).map((r) => r.user_id as string);
    expect(held.length).toBeGreaterThanOrEqual(2);
    await sql`insert into user_subscriptions (project_id, user_id, group_id, state, source)
      select ${t.projectId}, u.id, g.id, 'unsubscribed', 'admin_api' from users u, subscription_groups g
      where u.project_id = ${t.projectId} and g.project_id = ${t.projectId} and u.id = any(${held}::uuid[])`;
    await done(t, b);
    const states = await sql`select state, reason from messages where project_id = ${t.projectId}
      and broadcast_id = ${b} and user_id = any(${held}::uuid[])`;
    // At one a second, at most the one message already at the provider when they unsubscribed still goes.
    const sent = users.filter((u) => held.includes(u.id) && sink.to(u.email).length > 0);
    expect(sent.length).toBeLessThanOrEqual(1);
    expect(states.filter((r) => r.state === "skipped" && r.reason === "unsubscribed").length).toBe(
      held.length - sent.length,
    );
  }, 120_000);
});
