import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { systemContext } from "../access/context";
import { api, createTestProject, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { finalRow, newUser, p, queue, sink, template, useMessagesProject } from "../../test/fixtures/messages";
import { recordFeedback } from "./record-feedback";
import type { FeedbackReport } from "./report";

/*
 * What a report does, whatever its source: the message event once, the message's delivery (never
 * weakened), the user's `message.*` system event through the pipeline, and the suppression that makes the
 * next send to the address skip; then the suppressions API around it.
 */
useMessagesProject("relay_feedback_record");

const record = (reports: Omit<FeedbackReport, "source">[], projectId = p.projectId) =>
  recordFeedback(systemContext(getDb(), projectId), { reports: reports.map((r) => ({ source: "smtp", ...r })) });

async function sentMessage(userFields: Record<string, unknown> = {}) {
  const user = await newUser(userFields);
  const templateId = await template({ subject: "Hi", text: "hi" });
  const m = await queue({ templateId, userId: user.id });
  expect((await finalRow(m.id)).state).toBe("sent");
  return { user, templateId, id: m.id };
}

/** The message's delivery as the API shows it. */
const delivery = async (id: string) =>
  (await api("GET", p.admin(`/messages/${id}`), { key: p.keys.support })).body.delivery;

const events = (userId: string, name: string) =>
  sql`select data from events where project_id = ${p.projectId} and user_id = ${userId} and name = ${name}`;

describe("recording a report", () => {
  it("bounces hard once, shows it on the message, tells the user's events, suppresses, and skips the next send", async () => {
    const { user, templateId, id } = await sentMessage();
    const bounce = {
      messageId: id,
      kind: "bounced" as const,
      dedupeKey: `dsn:${user.email}:failed:5.1.1`,
      address: user.email,
      bounce: { type: "hard" as const, code: "5.1.1", reason: "smtp; 550 5.1.1 no such user" },
    };
    expect(await record([bounce])).toEqual(["recorded"]);
    // The service retries: the same report again, and again inside one batch, records nothing more.
    expect(await record([bounce, bounce])).toEqual(["duplicate", "duplicate"]);
    // A late `delivered` (providers do not keep order) is kept as an event but does not undo the bounce.
    expect(await record([{ messageId: id, kind: "delivered", dedupeKey: "late-delivered" }])).toEqual(["recorded"]);

    const res = await api("GET", p.admin(`/messages/${id}`), { key: p.keys.support });
    expect(res.status).toBe(200);
    expect(res.body.delivery).toMatchObject({ state: "bounced", type: "hard", code: "5.1.1" });
    expect(res.body.events.map((e: { kind: string }) => e.kind)).toEqual(["bounced", "delivered"]);
    expect(res.body.events[0]).toMatchObject({ source: "smtp", detail: { type: "hard", code: "5.1.1" } });

    const bounced = await events(user.id, "message.bounced");
    expect(bounced).toHaveLength(1);
    expect(bounced[0]!.data).toMatchObject({ message_id: id, template_id: templateId, type: "hard" });
    expect(await events(user.id, "message.delivered")).toHaveLength(0);

    const listed = await api("GET", p.admin(`/suppressions?address=${encodeURIComponent(user.email!.toUpperCase())}`), {
      key: p.keys.support,
    });
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        channel: "email",
        address: user.email,
        reason: "hard_bounce",
        source: "smtp",
        message_id: id,
      }),
    ]);
    expect(await queue({ templateId, userId: user.id })).toMatchObject({ state: "skipped", reason: "suppressed" });
  });

  it("records a batch about several messages as one report at a time would, with unstorable text made storable", async () => {
    const a = await sentMessage();
    const b = await sentMessage();
    const c = await sentMessage();
    const hard = {
      messageId: a.id,
      kind: "bounced" as const,
      dedupeKey: "batch-hard",
      bounce: { type: "hard" as const, code: "5.1.1", reason: "no such user" },
    };
    // A NUL and a lone surrogate, as a hostile DSN or webhook can carry: jsonb refuses both as written.
    const hostile = { type: "soft" as const, code: "4.2.2", reason: "full\u0000box \ud83d" };
    const outcomes = await record([
      { messageId: a.id, kind: "delivered", dedupeKey: "batch-delivered" },
      hard,
      hard,
      { messageId: a.id, kind: "delivered", dedupeKey: "batch-late-delivered" },
      { messageId: b.id.toUpperCase(), kind: "complained", dedupeKey: "batch-arf" },
      // A signed timestamp far before PostgreSQL's first (JavaScript reaches 271821 BC): the arrival time stands.
      { messageId: c.id, kind: "bounced", dedupeKey: "batch-soft", bounce: hostile, at: new Date(-3e15) },
      { messageId: crypto.randomUUID(), kind: "delivered", dedupeKey: "batch-unknown" },
      { messageId: "not-a-uuid", kind: "delivered", dedupeKey: "batch-junk" },
    ]);
    expect(outcomes).toEqual([
      "recorded",
      "recorded",
      "duplicate",
      "recorded",
      "recorded",
      "recorded",
      "unknown_message",
      "unknown_message",
    ]);
    expect(await delivery(a.id)).toMatchObject({ state: "bounced", type: "hard" });
    expect(await delivery(b.id)).toMatchObject({ state: "complained" });
    expect(await delivery(c.id)).toMatchObject({ state: "bounced", type: "soft", reason: "full\ufffdbox \ufffd" });
    // One system event per report that moved the delivery: a's delivered then bounced; the late one none.
    expect(await events(a.user.id, "message.delivered")).toHaveLength(1);
    expect(await events(a.user.id, "message.bounced")).toHaveLength(1);
    expect(await events(b.user.id, "message.complained")).toHaveLength(1);
    const [{ n }] = await sql`select count(*)::int as n from message_events
      where project_id = ${p.projectId} and message_id = any(${[a.id, b.id, c.id]})`;
    expect(n).toBe(5);
    const [soft] = await sql`select at from message_events where project_id = ${p.projectId} and message_id = ${c.id}`;
    expect(Math.abs(new Date(soft!.at).getTime() - Date.now())).toBeLessThan(60_000);
    const reasons = await sql`select address, reason from suppressions
      where project_id = ${p.projectId} and address = any(${[a.user.email, b.user.email, c.user.email]})`;
    expect(Object.fromEntries(reasons.map((r) => [r.address, r.reason]))).toEqual({
      [a.user.email!]: "hard_bounce",
      [b.user.email!]: "complaint",
    });
  });

  it("shows the last of a message's strongest reports, in one batch and across batches", async () => {
    const { user, id } = await sentMessage();
    const soft = (n: number) => ({
      messageId: id,
      kind: "bounced" as const,
      dedupeKey: `tie-${n}`,
      bounce: { type: "soft" as const, code: `4.0.${n}`, reason: `try ${n}` },
    });
    // A delivery whose detail has a `type` of its source's own (SES's notification type) is no bounce type.
    await record([{ messageId: id, kind: "delivered", dedupeKey: "tie-delivered", detail: { type: "Delivery" } }]);
    expect(await delivery(id)).toMatchObject({ state: "delivered", type: null, code: null, reason: null });
    // Ten equally strong reports in one batch: the last in report order stands, as one at a time leaves it.
    await record(Array.from({ length: 10 }, (_, n) => soft(n)));
    expect(await delivery(id)).toMatchObject({ state: "bounced", type: "soft", code: "4.0.9", reason: "try 9" });
    // A later batch's equal report comes after them; its late `delivered` neither moves it nor tells the user.
    await record([soft(10), { messageId: id, kind: "delivered", dedupeKey: "tie-late" }]);
    expect(await delivery(id)).toMatchObject({ state: "bounced", code: "4.0.10" });
    expect(await events(user.id, "message.delivered")).toHaveLength(1);
    expect(await events(user.id, "message.bounced")).toHaveLength(11);
  });

  it("records delivered and complained in order; a complaint suppresses", async () => {
    const { user, id } = await sentMessage();
    expect(await record([{ messageId: id, kind: "delivered", dedupeKey: "d1" }])).toEqual(["recorded"]);
    expect(await record([{ messageId: id, kind: "complained", dedupeKey: "arf1" }])).toEqual(["recorded"]);
    const res = await api("GET", p.admin(`/messages/${id}`), { key: p.keys.support });
    expect(res.body.delivery.state).toBe("complained");
    expect(await events(user.id, "message.delivered")).toHaveLength(1);
    expect(await events(user.id, "message.complained")).toHaveLength(1);
    const [row] =
      await sql`select reason from suppressions where project_id = ${p.projectId} and address = ${user.email}`;
    expect(row!.reason).toBe("complaint");
  });

  it("suppresses after the bounce policy's count of soft bounces, not before", async () => {
    const email = `soft-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const soft = (id: string, n: number) => ({
      messageId: id,
      kind: "bounced" as const,
      dedupeKey: `soft-${n}`,
      bounce: { type: "soft" as const, code: "4.2.2", reason: "mailbox full" },
    });
    const suppressed = async () =>
      (await sql`select 1 from suppressions where project_id = ${p.projectId} and address = ${email}`).length;
    const first = await sentMessage({ email });
    await record([soft(first.id, 1)]);
    const user = first.user;
    const templateId = await template({ subject: "Again", text: "again" });
    const second = await queue({ templateId, userId: user.id });
    expect((await finalRow(second.id)).state).toBe("sent");
    await record([soft(second.id, 2)]);
    expect(await suppressed()).toBe(0);
    const third = await queue({ templateId: await template({ subject: "3", text: "3" }), userId: user.id });
    expect((await finalRow(third.id)).state).toBe("sent");
    await record([soft(third.id, 3)]);
    expect(await suppressed()).toBe(1);
  });

  it("follows the project's bounce_policy set through the settings API: its count, within its window", async () => {
    const email = `policy-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const patch = (bounce_policy: unknown) => api("PATCH", p.admin(""), { key: p.keys.admin, body: { bounce_policy } });
    // One soft bounce within a day: the default (3 within 7 days) would suppress after neither report below.
    const set = await patch({ soft_bounces: 1, within: "1 day" });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    try {
      const soft = (id: string, n: number, at: Date) => ({
        messageId: id,
        kind: "bounced" as const,
        dedupeKey: `policy-soft-${n}`,
        at,
        bounce: { type: "soft" as const, code: "4.2.2", reason: "mailbox full" },
      });
      const suppressed = async () =>
        (await sql`select reason from suppressions where project_id = ${p.projectId} and address = ${email}`).map(
          (r) => r.reason,
        );
      const first = await sentMessage({ email });
      // Two days ago: outside the policy's window, so it does not count.
      await record([soft(first.id, 1, new Date(Date.now() - 2 * 86_400_000))]);
      expect(await suppressed()).toEqual([]);
      const second = await queue({ templateId: await template({ subject: "s", text: "s" }), userId: first.user.id });
      expect((await finalRow(second.id)).state).toBe("sent");
      await record([soft(second.id, 2, new Date())]);
      expect(await suppressed()).toEqual(["soft_bounces"]);
    } finally {
      expect((await patch(null)).status).toBe(200);
    }
  });

  it("releases a journey's wait for `message.bounced` with the bounce's data, through the pipeline", async () => {
    // A journey's send step needs a provider of the project's own (the file's server has no SMTP_URL).
    const provider = await api("POST", p.admin("/providers"), {
      key: p.keys.admin,
      body: {
        channel: "email",
        kind: "smtp",
        name: "Sink",
        url: `smtp://127.0.0.1:${sink.port}`,
        from: "Sink <sink@relay.example.test>",
      },
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const templateId = await template({ subject: "Welcome", text: "welcome" });
    const event = `Joined ${crypto.randomUUID().slice(0, 8)}`;
    const j = await api("POST", p.admin("/journeys"), {
      key: p.keys.editor,
      body: {
        name: `Bounce watch ${event}`,
        entrances: [{ kind: "event", event_name: event, data_key: "join" }],
        steps: [
          { key: "welcome", kind: "send", template_id: templateId },
          {
            key: "bounced",
            kind: "wait",
            event: { name: "message.bounced", condition: [{ path: "type", op: "eq", value: "hard" }] },
            timeout: "1 day",
            next: "mark",
            timeout_next: "bye",
          },
          { key: "mark", kind: "update", data: { bad_address: true }, next: "bye" },
          { key: "bye", kind: "exit" },
        ],
      },
    });
    expect(j.status, JSON.stringify(j.body)).toBe(201);
    const user = await newUser();
    const tracked = await api("POST", p.client("/users/events"), {
      key: p.keys.client,
      body: [{ name: event, identifier: [{ external_id: user.externalId }], data: {} }],
    });
    expect(tracked.status, JSON.stringify(tracked.body)).toBeLessThan(300);
    const entry = await waitFor(
      async () =>
        (
          await sql`select id from journey_entries where project_id = ${p.projectId} and journey_id = ${j.body.id}
            and user_id = ${user.id} and state = 'waiting' and step_key = 'bounced'`
        )[0],
      30_000,
      "the entry waiting for the bounce",
    );
    const [m] = await sql`select id from messages where project_id = ${p.projectId} and journey_entry_id = ${entry.id}`;
    expect((await finalRow(m!.id)).state).toBe("sent");
    await record([
      {
        messageId: m!.id,
        kind: "bounced",
        dedupeKey: "journey-bounce",
        bounce: { type: "hard", code: "5.1.1", reason: "no such user" },
      },
    ]);
    await waitFor(
      async () =>
        (await sql`select state from journey_entries where project_id = ${p.projectId} and id = ${entry.id}`)[0]!
          .state === "exited",
      30_000,
      "the entry released by the bounce",
    );
    const [u] = await sql`select data from users where project_id = ${p.projectId} and id = ${user.id}`;
    expect(u!.data).toMatchObject({ bad_address: true });
    const bounced = await events(user.id, "message.bounced");
    expect(bounced[0]!.data).toMatchObject({ message_id: m!.id, journey_id: j.body.id });
  });

  it("counts each message's first delivery under its project, template, broadcast and the broadcast's arm", async () => {
    const [a, b, c] = [await sentMessage(), await sentMessage(), await sentMessage()];
    const [list] = await sql<{ id: string }[]>`
      insert into lists (project_id, name, kind) values (${p.projectId}, 'arms', 'static') returning id`;
    const [broadcast] = await sql<{ id: string }[]>`
      insert into broadcasts (project_id, name, template_id, list_id, send_at, state)
      values (${p.projectId}, 'arms', ${a.templateId}, ${list!.id}, now(), 'sent') returning id`;
    // a: the test's second arm; b: the rest, which got the winner; c: no broadcast's. None is a journey's
    // (the fixture's messages are a journey step's).
    await sql`update messages set journey_entry_id = null, journey_step_key = null where id in ${sql([a.id, b.id, c.id])}`;
    await sql`update messages set broadcast_id = ${broadcast!.id}, variant = 1 where id = ${a.id}`;
    await sql`update messages set broadcast_id = ${broadcast!.id}, variant = -1 where id = ${b.id}`;
    const counted = (scope: string, scopeId: string) => sql<{ n: number }[]>`
      select coalesce(sum(count), 0)::int as n from message_rollups
      where project_id = ${p.projectId} and scope = ${scope} and scope_id = ${scopeId} and metric = 'delivered'`;
    const [{ n: before }] = await counted("project", p.projectId);
    const reports = [a, b, c].map((m) => ({ messageId: m.id, kind: "delivered" as const, dedupeKey: `d-${m.id}` }));
    expect(await record(reports)).toEqual(["recorded", "recorded", "recorded"]);
    // Again, under other keys: recorded, but a message's delivery counts once.
    expect(await record(reports.map((r) => ({ ...r, dedupeKey: `again-${r.messageId}` })))).toEqual([
      "recorded",
      "recorded",
      "recorded",
    ]);
    const figures = async () => ({
      project: (await counted("project", p.projectId))[0]!.n - before,
      a: (await counted("template", a.templateId))[0]!.n,
      c: (await counted("template", c.templateId))[0]!.n,
      broadcast: (await counted("broadcast", broadcast!.id))[0]!.n,
      arm: (await counted("variant", `${broadcast!.id}/1`))[0]!.n,
      rest: (await counted("variant", `${broadcast!.id}/rest`))[0]!.n,
    });
    expect(await figures()).toEqual({ project: 3, a: 1, c: 1, broadcast: 2, arm: 1, rest: 1 });
  });

  it("drops a report about another project's message, a queued one or none, and writes nothing", async () => {
    const { id } = await sentMessage();
    const other = await createTestProject("feedback-other");
    const before = await sql`select count(*)::int as n from message_events`;
    expect(
      await record(
        [
          { messageId: id, kind: "bounced", dedupeKey: "x", bounce: { type: "hard", code: "5.1.1", reason: null } },
          { messageId: crypto.randomUUID(), kind: "delivered", dedupeKey: "y" },
        ],
        other.projectId,
      ),
    ).toEqual(["unknown_message", "unknown_message"]);
    expect(await sql`select count(*)::int as n from message_events`).toEqual(before);
  });
});

describe("the suppressions API", () => {
  it("adds up to 10,000 at once (editor), pages them, refuses more, and lets only an admin remove one", async () => {
    const user = await newUser();
    const addresses = [user.email!.toUpperCase(), ...Array.from({ length: 2999 }, (_, i) => `bulk-${i}@example.org`)];
    const refused = await api("POST", p.admin("/suppressions"), { key: p.keys.support, body: { addresses } });
    expect(refused.status).toBe(403);
    const added = await api("POST", p.admin("/suppressions"), { key: p.keys.editor, body: { addresses } });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toEqual({ added: 3000, already: 0 });
    const again = await api("POST", p.admin("/suppressions"), {
      key: p.keys.editor,
      body: { addresses: [user.email, "bulk-1@example.org"] },
    });
    expect(again.body).toEqual({ added: 0, already: 2 });
    const tooMany = await api("POST", p.admin("/suppressions"), {
      key: p.keys.editor,
      body: { addresses: Array.from({ length: 10_001 }, (_, i) => `x${i}@e.org`) },
    });
    expect(tooMany.status).toBe(400);
    expect((await sql`select 1 from suppressions where address like 'x%@e.org'`).length).toBe(0);

    const seen = new Set<string>();
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const res: { status: number; body: { data: { address: string }[]; next_cursor: string | null } } = await api(
        "GET",
        p.admin(`/suppressions?address=bulk-&limit=500${cursor ? `&cursor=${cursor}` : ""}`),
        {
          key: p.keys.support,
        },
      );
      expect(res.status).toBe(200);
      for (const s of res.body.data) seen.add(s.address);
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    expect(seen.size).toBe(2999);

    const q = `/suppressions?address=${encodeURIComponent(user.email!)}`;
    expect((await api("DELETE", p.admin(q), { key: p.keys.editor })).status).toBe(403);
    expect((await api("DELETE", p.admin(q), { key: p.keys.admin })).status).toBe(204);
    expect((await api("DELETE", p.admin(q), { key: p.keys.admin })).status).toBe(404);
    const told = await events(user.id, "user.suppression.removed");
    expect(told).toHaveLength(1);
    expect(told[0]!.data).toMatchObject({ channel: "email", address: user.email, reason: "manual" });
  });
});
