import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, sql } from "@/scripts/test/helpers";
import { twilioSignature } from "@/lib/subscriptions/twilio-signature";
import { finalRow, newUser, p, queue, useMessagesProject } from "@/test/fixtures/messages";

/*
 * Twilio status callbacks: every SMS is sent with its StatusCallback; Twilio's signed callbacks become the
 * message's delivery once, a carrier's refusal suppresses the number, and a forged, replayed or foreign
 * callback writes nothing.
 */
useMessagesProject("relay_feedback_twilio");

const TOKEN = `tok-${crypto.randomUUID()}`;
let twilio: Server;
const sent: { to: string; callback: string | null; sid: string }[] = [];
let templateId = "";

beforeAll(async () => {
  // A loopback stand-in for Twilio's Messages API that keeps the StatusCallback each SMS came with.
  twilio = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const form = new URLSearchParams(body);
      const sid = `SM${crypto.randomUUID().replaceAll("-", "")}`;
      sent.push({ to: form.get("To")!, callback: form.get("StatusCallback"), sid });
      res.writeHead(201, { "content-type": "application/json" });
      res.end(JSON.stringify({ sid }));
    });
  });
  await new Promise<void>((r) => twilio.listen(0, "127.0.0.1", r));
  const port = (twilio.address() as { port: number }).port;
  const provider = await api("POST", p.admin("/providers"), {
    key: p.keys.admin,
    body: {
      channel: "sms",
      kind: "twilio",
      name: "Stand-in",
      account_sid: "AC123",
      auth_token: TOKEN,
      from: "+15005550006",
      api_base: `http://127.0.0.1:${port}`,
    },
  });
  expect(provider.status).toBe(201);
  const group = await api("POST", p.admin("/subscription-groups"), {
    key: p.keys.admin,
    body: { name: "Texts", channel: "sms" },
  });
  templateId = (
    await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: { name: "sms-status", channel: "sms", subscription_group: group.body.id, text: "Hello" },
    })
  ).body.id;
});
afterAll(() => new Promise<void>((r) => twilio.close(() => r())));

let phones = 0;
async function sentSms() {
  const phone = `+49151${String(1_000_000 + ++phones).padStart(7, "0")}`;
  const user = await newUser({ phone });
  const m = await queue({ templateId, userId: user.id });
  expect((await finalRow(m.id)).state).toBe("sent");
  const out = sent.find((s) => s.to === phone)!;
  return { user, phone, id: m.id, sid: out.sid, callback: out.callback };
}

const statusPath = (projectId = p.projectId) => `/api/webhooks/twilio/${projectId}/status`;

/** Posts as Twilio does: form-encoded, signed over the full URL and the sorted parameters. */
async function callback(fields: Record<string, string>, opts: { token?: string; projectId?: string } = {}) {
  const url = baseUrl + statusPath(opts.projectId);
  const signature = twilioSignature(opts.token ?? TOKEN, url, Object.entries(fields));
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: await res.json() };
}

const message = (id: string) => api("GET", p.admin(`/messages/${id}`), { key: p.keys.support });
const eventCount = async () => (await sql`select count(*)::int as n from message_events`)[0]!.n as number;

describe("Twilio status callbacks", () => {
  it("sends every SMS with its StatusCallback and records `delivered` once", async () => {
    const m = await sentSms();
    expect(m.callback).toBe(`https://relay.example.test${statusPath()}`);
    const fields = { AccountSid: "AC123", MessageSid: m.sid, MessageStatus: "delivered", To: m.phone };
    expect(await callback(fields)).toEqual({ status: 200, body: { outcome: "recorded" } });
    expect(await callback(fields)).toEqual({ status: 200, body: { outcome: "duplicate" } });
    const res = await message(m.id);
    expect(res.body.delivery.state).toBe("delivered");
    expect(res.body.events).toEqual([expect.objectContaining({ kind: "delivered", source: "twilio" })]);
    const told = await sql`select 1 from events where project_id = ${p.projectId} and user_id = ${m.user.id}
      and name = 'message.delivered'`;
    expect(told).toHaveLength(1);
  });

  it("suppresses the number on a carrier's refusal (30006) and skips the next SMS", async () => {
    const m = await sentSms();
    const fields = {
      MessageSid: m.sid,
      MessageStatus: "undelivered",
      ErrorCode: "30006",
      To: m.phone,
    };
    expect((await callback(fields)).body.outcome).toBe("recorded");
    expect((await message(m.id)).body.delivery).toMatchObject({ state: "bounced", type: "hard", code: "30006" });
    const [s] = await sql`select reason, source from suppressions where project_id = ${p.projectId}
      and channel = 'sms' and address = ${m.phone}`;
    expect(s).toMatchObject({ reason: "carrier", source: "twilio" });
    expect(await queue({ templateId, userId: m.user.id })).toMatchObject({ state: "skipped", reason: "suppressed" });
  });

  it("keeps an undelivered SMS with another code a soft bounce, and ignores interim statuses", async () => {
    const m = await sentSms();
    expect((await callback({ MessageSid: m.sid, MessageStatus: "sent" })).body.outcome).toBe("ignored");
    const soft = { MessageSid: m.sid, MessageStatus: "undelivered", ErrorCode: "30003", To: m.phone };
    expect((await callback(soft)).body.outcome).toBe("recorded");
    expect((await message(m.id)).body.delivery).toMatchObject({ state: "bounced", type: "soft", code: "30003" });
    expect(await sql`select 1 from suppressions where address = ${m.phone}`).toHaveLength(0);
  });

  it("refuses a forged signature with 401 and records nothing", async () => {
    const m = await sentSms();
    const before = await eventCount();
    const forged = await callback({ MessageSid: m.sid, MessageStatus: "failed" }, { token: "not-the-token" });
    expect(forged.status).toBe(401);
    expect(forged.body.status).toBe(401);
    const unsigned = await fetch(baseUrl + statusPath(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ MessageSid: m.sid, MessageStatus: "failed" }).toString(),
    });
    expect(unsigned.status).toBe(401);
    expect(await eventCount()).toBe(before);
    expect((await message(m.id)).body.delivery).toBeNull();
  });

  it("does not touch another project's message: its callback URL, its token", async () => {
    const m = await sentSms();
    const other = await createTestProject("twilio-other");
    const before = await eventCount();
    // Signed with this project's token but posted to the other project's URL: the other has no provider.
    const res = await callback({ MessageSid: m.sid, MessageStatus: "failed" }, { projectId: other.projectId });
    expect(res.status).toBe(401);
    expect((await callback({ MessageSid: m.sid, MessageStatus: "failed" }, { projectId: "nope" })).status).toBe(401);
    expect(await eventCount()).toBe(before);
  });
});
