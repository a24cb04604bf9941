import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, ownDatabaseForFile, sql, type TestProject } from "../../scripts/test/helpers";
import { SmtpSink, stallingSmtp } from "../../scripts/test/smtp-sink";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";

/*
 * A journey's `send` step end to end: the entering event, the step engine (lib/journeys) queueing the
 * message, the sender (lib/messages) mailing it to a real SMTP sink, and the message's final state waking
 * the entry so it moves on. On a database of the file's own (messages are deployment-wide work another
 * file's worker, without this SMTP_URL, would claim).
 */
let sink: SmtpSink;
// Before ownDatabaseForFile's hook: its server reads SMTP_URL (a send step needs a channel to send on).
beforeAll(async () => {
  sink = await new SmtpSink().listen();
  process.env.SMTP_URL = `smtp://127.0.0.1:${sink.port}`;
});
ownDatabaseForFile("relay_send_step");

let p: TestProject;
const workers: TestWorker[] = [];
const WORKER_ENV = () => ({
  SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
  MAIL_FROM: "Relay Test <news@relay.example.test>",
  AUTH_URL: "https://relay.example.test",
  MESSAGES_POLL_MS: "50",
  JOURNEY_POLL_MS: "20",
});
let templateId: string;

beforeAll(async () => {
  p = await createTestProject("send-step");
  const group = await api("POST", p.admin("/subscription-groups"), {
    key: p.keys.admin,
    body: { name: "News", channel: "email" },
  });
  const t = await api("POST", p.admin("/templates"), {
    key: p.keys.editor,
    body: {
      name: "welcome",
      channel: "email",
      subscription_group: group.body.id,
      subject: "Welcome {{ journey.signup.plan }}",
      text: "Hi",
    },
  });
  expect(t.status, JSON.stringify(t.body)).toBe(201);
  templateId = t.body.id;
  workers.push(await startWorker(process.env.DATABASE_URL!, WORKER_ENV()));
}, 240_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop("SIGKILL")));
  await sink?.close();
});

let n = 0;
/** A journey entered on its own event: `before` (if any), then the `welcome` send step, then an exit. */
async function sendJourney(before: unknown[] = []) {
  const event = `Signed Up ${++n}`;
  const r = await api("POST", p.admin("/journeys"), {
    key: p.keys.editor,
    body: {
      name: `Welcome ${n}`,
      allow_multiple_entries: true,
      entrances: [{ kind: "event", event_name: event, data_key: "signup" }],
      steps: [...before, { key: "welcome", kind: "send", template_id: templateId }, { key: "bye", kind: "exit" }],
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.id as string, event };
}

async function user(externalId: string, email: string | null) {
  const r = await api("POST", p.client("/users"), {
    key: p.keys.client,
    body: { identifier: [{ external_id: externalId }], email },
  });
  expect(r.status).toBeLessThan(300);
  return r.body.id as string;
}

const exitedEntry = (journeyId: string, userId: string) =>
  waitFor(
    async () => {
      const [e] = await sql`select id from journey_entries where project_id = ${p.projectId}
        and journey_id = ${journeyId} and user_id = ${userId} and state = 'exited'`;
      return e?.id as string | undefined;
    },
    30_000,
    `entry of ${userId} exited`,
  );

const pathOf = async (journeyId: string, entryId: string) => {
  const r = await api("GET", p.admin(`/journeys/${journeyId}/entries/${entryId}`), { key: p.keys.support });
  expect(r.status).toBe(200);
  return r.body;
};

describe("a journey's send step", () => {
  it("mails the entering user once, records the message in the path and exits; an unsubscribed or unreachable user is skipped", async () => {
    const j = await sendJourney();
    const reader = await user("reader", "reader@example.com");
    const gone = await user("gone", "gone@example.com");
    const unsub = await api("POST", p.client("/users/subscriptions"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "gone" }], subscriptions: [{ group: "News", state: "unsubscribed" }] },
    });
    expect(unsub.status).toBe(200);
    const mute = await user("mute", null);
    const tracked = await api("POST", p.client("/users/events"), {
      key: p.keys.client,
      body: ["reader", "gone", "mute"].map((external_id) => ({
        name: j.event,
        identifier: [{ external_id }],
        data: { plan: "pro" },
      })),
    });
    expect(tracked.status).toBeLessThan(300);

    const entry = await exitedEntry(j.id, reader);
    const view = await pathOf(j.id, entry);
    expect(view.state).toBe("exited");
    const [message] = await sql`select id, state from messages where project_id = ${p.projectId}
      and journey_entry_id = ${entry} and journey_step_key = 'welcome'`;
    expect(message).toMatchObject({ state: "sent" });
    expect(view.path.map((s: any) => [s.step_key, s.outcome])).toEqual([
      ["welcome", `sent message ${message!.id}`],
      ["bye", "exit"],
    ]);
    const mails = sink.to("reader@example.com");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Welcome pro");
    expect(mails[0]!.messageId).toBe(`<${message!.id}@relay.example.test>`);

    for (const [who, reason] of [
      [gone, "unsubscribed"],
      [mute, "no_contact"],
    ] as const) {
      const skipped = await pathOf(j.id, await exitedEntry(j.id, who));
      expect(skipped.path.map((s: any) => [s.step_key, s.outcome])).toEqual([
        ["welcome", `skipped: ${reason}`],
        ["bye", "exit"],
      ]);
    }
    expect(sink.to("gone@example.com")).toHaveLength(0);
  }, 120_000);

  it("a template a journey sends is not deleted: 409 naming the journey", async () => {
    const used = await sendJourney();
    const name = (await sql`select name from journeys where id = ${used.id}`)[0]!.name as string;
    const refused = await api("DELETE", p.admin(`/templates/${templateId}`), { key: p.keys.editor });
    expect(refused.status).toBe(409);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.body.detail).toContain(name);
    // The earlier tests' journeys send it too: each is named.
    expect(refused.body.journeys).toContainEqual({ id: used.id, name });
    expect((await sql`select count(*)::int as n from message_templates where id = ${templateId}`)[0]!.n).toBe(1);
  });

  it("a send whose template vanished records why and moves on; the batch, with another journey's entry, goes on", async () => {
    const used = await sendJourney();
    // A journey whose template went away under it (a delete racing an edit, or rows from before this
    // check): its entry's step records why and the entry moves on; the other journey's entry, claimed in
    // the same batch, is mailed as usual.
    const doomed = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: { name: "doomed", channel: "email", transactional: true, subject: "Doomed", text: "x" },
    });
    expect(doomed.status).toBe(201);
    const orphan = await sendJourney();
    await sql`update journeys set steps = jsonb_set(steps, '{0,template_id}', to_jsonb(${doomed.body.id}::text))
      where id = ${orphan.id}`;
    await sql`delete from message_templates where id = ${doomed.body.id}`;
    const a = await user("orphaned", "orphaned@example.com");
    const b = await user("unharmed", "unharmed@example.com");
    const tracked = await api("POST", p.client("/users/events"), {
      key: p.keys.client,
      body: [
        { name: orphan.event, identifier: [{ external_id: "orphaned" }], data: { plan: "x" } },
        { name: used.event, identifier: [{ external_id: "unharmed" }], data: { plan: "y" } },
      ],
    });
    expect(tracked.status).toBeLessThan(300);
    const lost = await pathOf(orphan.id, await exitedEntry(orphan.id, a));
    expect(lost.path.map((s: any) => [s.step_key, s.outcome])).toEqual([
      ["welcome", "failed: the template no longer exists"],
      ["bye", "exit"],
    ]);
    await exitedEntry(used.id, b);
    expect(sink.to("unharmed@example.com")).toHaveLength(1);
  }, 120_000);

  it("wakes the entries that wait for a message when deleting its template takes the message", async () => {
    const t = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: { name: "old", channel: "email", transactional: true, subject: "Old", text: "x" },
    });
    expect(t.status).toBe(201);
    const j = await sendJourney();
    const [entrance] = await sql`select id from journey_entrances where journey_id = ${j.id}`;
    const u = await user("waiting-on-old", "waiting-on-old@example.com");
    // An entry waiting at the send step for a message of the old template that is not sent yet (due in a
    // day): the journey sends another template now, so the old one may be deleted, taking the message.
    const [entry] = await sql`insert into journey_entries (project_id, journey_id, entrance_id, user_id, event_id,
        context, step_key, state, step_since)
      values (${p.projectId}, ${j.id}, ${entrance!.id}, ${u}, gen_random_uuid(), '{}', 'welcome', 'waiting', now())
      returning id`;
    const [m] = await sql`insert into messages (project_id, template_id, user_id, channel, journey_entry_id,
        journey_step_key, next_attempt_at)
      values (${p.projectId}, ${t.body.id}, ${u}, 'email', ${entry!.id}, 'welcome', now() + interval '1 day')
      returning id`;
    await sql`update journey_entries set waiting_for = ${sql.json({ kind: "message", message_id: m!.id })}
      where id = ${entry!.id}`;
    const gone = await api("DELETE", p.admin(`/templates/${t.body.id}`), { key: p.keys.editor });
    expect(gone.status).toBe(204);
    const view = await pathOf(j.id, await exitedEntry(j.id, u));
    expect(view.path.map((s: any) => [s.step_key, s.outcome])).toEqual([
      ["welcome", "failed: the message is gone"],
      ["bye", "exit"],
    ]);
  }, 120_000);

  it("two workers, one SIGKILLed while 200 entries pass the send step: each message mailed once, none missing", async () => {
    const N = 200;
    const j = await sendJourney([{ key: "d", kind: "delay", duration: "1 day" }]);
    // A second worker, the one to be killed, sending to an SMTP server that takes each message's data and
    // never answers: it is killed holding claimed messages the provider has (as after an acceptance not yet
    // recorded). Small batches keep many claims in flight; a short lease brings its messages back soon.
    const staller = await stallingSmtp();
    const held = staller.held;
    const env = {
      SMTP_URL: `smtp://127.0.0.1:${staller.port}`,
      JOURNEY_BATCH: "10",
      MESSAGES_MAX_IN_FLIGHT: "20",
      MESSAGES_LEASE_SECONDS: "5",
      DATABASE_POOL_SIZE: "4",
    };
    // The file's worker steps aside until the doomed one holds mails: with both polling from the start,
    // the file's worker (batches of 1,000) could take all 200 entries before the doomed one (batches of 10)
    // claimed any, and on a loaded machine it did. A fresh survivor starts once the doomed worker holds some.
    await workers[0]!.stop("SIGTERM");
    const doomed = await startWorker(process.env.DATABASE_URL!, { ...WORKER_ENV(), ...env });
    workers.push(doomed);
    // The entries are seeded straight at a delay falling due in a moment, as lib/journeys/faults.int.test.ts does.
    const [entrance] = await sql`select id from journey_entrances where journey_id = ${j.id}`;
    await sql`
      with u as (insert into users (project_id, email, data)
        select ${p.projectId}, 'kill-' || g || '@example.com', '{}' from generate_series(1, ${N}) g
        returning project_id, id)
      insert into journey_entries (project_id, journey_id, entrance_id, user_id, event_id, context, step_key, state,
        wake_at, step_since, waiting_for)
      select u.project_id, ${j.id}, ${entrance!.id}, u.id, gen_random_uuid(), '{"signup": {"plan": "kill"}}', 'd',
        'waiting', now() + interval '500 milliseconds', now(), '{"kind": "delay", "duration": "1 day"}' from u`;
    const exited = async () =>
      (
        await sql`select count(*)::int as n from journey_entries where project_id = ${p.projectId}
          and journey_id = ${j.id} and state = 'exited'`
      )[0]!.n as number;
    await waitFor(async () => held.length > 0, 60_000, "mails held by the doomed worker");
    workers.push(await startWorker(process.env.DATABASE_URL!, WORKER_ENV()));
    await waitFor(async () => (await exited()) >= 20, 60_000, "entries flowing through the survivor");
    await doomed.stop("SIGKILL");
    staller.close();
    expect(await exited()).toBeLessThan(N);
    await waitFor(async () => (await exited()) === N, 90_000, "every entry exited");

    // The survivor sent every message, the held ones after their lease, each exactly once to the sink,
    // with its message's Message-ID (a copy a provider did take from the killed worker carries the same one).
    const ids = new Map<string, string>();
    for (const r of await sql`select u.email, m.id from messages m join users u on u.project_id = m.project_id
        and u.id = m.user_id where m.project_id = ${p.projectId} and u.email like 'kill-%'`)
      ids.set(r.email, `<${r.id}@relay.example.test>`);
    const kills = sink.mails.filter((m) => m.to.some((to) => to.startsWith("kill-")));
    expect(kills.map((m) => m.to[0]).sort()).toEqual([...ids.keys()].sort());
    expect(ids.size).toBe(N);
    expect(kills.every((m) => m.messageId === ids.get(m.to[0]!))).toBe(true);
    expect(held.every((to) => sink.to(to).length === 1)).toBe(true);
    const [t] = await sql`
      select
        (select count(*)::int from messages where project_id = ${p.projectId} and state = 'sent'
          and journey_entry_id in (select id from journey_entries where journey_id = ${j.id})) as sent,
        (select count(*)::int from (select entry_id, step_key from journey_entry_steps where journey_id = ${j.id}
          group by 1, 2 having count(*) > 1) d) as twice_in_path,
        (select count(*)::int from journey_entry_steps where journey_id = ${j.id} and step_key = 'welcome'
          and outcome like 'sent message %') as sent_in_path`;
    expect(t).toEqual({ sent: N, twice_in_path: 0, sent_in_path: N });
  }, 240_000);
});
