import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { twilioSignature } from "./twilio-signature";

const TOKEN = "twilio-auth-token-for-tests";
let p: TestProject;
let texts: string;
let alerts: string;
beforeAll(async () => {
  p = await createTestProject("inbound-sms");
  texts = (
    await api("POST", p.admin("/subscription-groups"), { key: p.keys.admin, body: { name: "Texts", channel: "sms" } })
  ).body.id;
  alerts = (
    await api("POST", p.admin("/subscription-groups"), {
      key: p.keys.admin,
      body: { name: "Alerts", channel: "sms", default_policy: "opt_in" },
    })
  ).body.id;
  await api("POST", p.admin("/subscription-groups"), { key: p.keys.admin, body: { name: "Mail", channel: "email" } });
  await api("PATCH", p.admin("/subscription-groups/settings"), {
    key: p.keys.admin,
    body: { twilio_auth_token: TOKEN },
  });
});

const webhookPath = (projectId = p.projectId) => `/api/webhooks/twilio/${projectId}/sms`;

/** Posts like Twilio does: form-encoded, signed over the full URL and the sorted parameters. */
async function inbound(
  fields: Record<string, string>,
  opts: { token?: string; signature?: string; projectId?: string } = {},
) {
  const url = baseUrl + webhookPath(opts.projectId);
  const all = {
    AccountSid: "AC00000000000000000000000000000000",
    MessageSid: `SM${crypto.randomUUID().replaceAll("-", "")}`,
    To: "+15005550006",
    ...fields,
  };
  const signature = opts.signature ?? twilioSignature(opts.token ?? TOKEN, url, Object.entries(all));
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
    body: new URLSearchParams(all).toString(),
  });
  return {
    status: res.status,
    text: await res.text(),
    contentType: res.headers.get("content-type"),
    sent: all,
    signature,
  };
}

async function userWithPhone(externalId: string, phone: string) {
  return (
    await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: externalId }], phone },
    })
  ).body.id as string;
}
const canText = async (userId: string, group = "Texts") =>
  (await api("GET", p.admin(`/subscriptions/check?user_id=${userId}&group=${group}`), { key: p.keys.support })).body;
async function smsStates(userId: string) {
  const rows =
    await sql`select group_id, state, source from user_subscriptions where project_id = ${p.projectId} and user_id = ${userId}`;
  return Object.fromEntries(
    rows.map((r) => [
      r.group_id === texts ? "Texts" : r.group_id === alerts ? "Alerts" : "other",
      `${r.state}/${r.source}`,
    ]),
  );
}

describe("Twilio inbound SMS webhook", () => {
  it("`stop` unsubscribes the sender's phone from SMS: the channel and every SMS group, with the message recorded", async () => {
    const id = await userWithPhone("stop-1", "+15551230001");
    expect((await canText(id)).allowed).toBe(true);
    const res = await inbound({ From: "+15551230001", Body: "stop" });
    expect(res.status).toBe(200);
    expect(res.contentType).toContain("text/xml");
    expect(res.text).toContain("<Response></Response>");
    expect(await smsStates(id)).toEqual({ Texts: "unsubscribed/sms", Alerts: "unsubscribed/sms" });
    expect(await canText(id)).toMatchObject({ allowed: false, reason: "channel_opted_out" });
    const user = await api("GET", p.admin(`/users/${id}`), { key: p.keys.support });
    const textsView = user.body.subscriptions.find((s: any) => s.group === "Texts");
    expect(textsView).toMatchObject({
      state: "unsubscribed",
      effective_state: "unsubscribed",
      channel_opted_out: true,
    });
    expect(textsView.history[0]).toMatchObject({
      source: "sms",
      detail: { message_sid: res.sent.MessageSid, from: "+15551230001" },
    });
    expect(user.body.subscriptions.find((s: any) => s.group === "Mail")).toMatchObject({
      state: null,
      channel_opted_out: false,
    });
  });

  it.each(["STOP", "  Stop\n", "STOPALL", "unsubscribe", "CANCEL", "end", "Quit"])(
    "%j is an opt-out keyword",
    async (body) => {
      const id = await userWithPhone(
        `kw-${body.trim()}`,
        `+1555124${String(Math.floor(Math.random() * 10000)).padStart(4, "0")}`,
      );
      const phone = (await sql`select phone from users where id = ${id}`)[0]!.phone as string;
      await inbound({ From: phone, Body: body });
      expect((await canText(id)).allowed).toBe(false);
    },
  );

  it("`please don't stop` and other sentences change nothing", async () => {
    const id = await userWithPhone("sentence-1", "+15551230002");
    for (const body of ["please don't stop", "Stop sending me these please", "STOP STOP", "start me up", ""]) {
      expect((await inbound({ From: "+15551230002", Body: body })).status).toBe(200);
    }
    expect(await smsStates(id)).toEqual({});
    expect((await canText(id)).allowed).toBe(true);
    const [{ count }] =
      await sql`select count(*)::int as count from subscription_changes where project_id = ${p.projectId} and user_id = ${id}`;
    expect(count).toBe(0);
  });

  it("START and UNSTOP resubscribe", async () => {
    const id = await userWithPhone("start-1", "+15551230003");
    await inbound({ From: "+15551230003", Body: "STOP" });
    await inbound({ From: "+15551230003", Body: "start" });
    expect(await smsStates(id)).toEqual({ Texts: "subscribed/sms", Alerts: "subscribed/sms" });
    expect(await canText(id)).toMatchObject({ allowed: true, reason: "subscribed" });
    expect(await canText(id, "Alerts")).toMatchObject({ allowed: true, reason: "subscribed" });
    await inbound({ From: "+15551230003", Body: "Stop." });
    expect((await canText(id)).allowed).toBe(false);
    await inbound({ From: "+15551230003", Body: " UNSTOP " });
    expect((await canText(id)).allowed).toBe(true);
    const history = (
      await api("GET", p.admin(`/users/${id}/subscriptions`), { key: p.keys.support })
    ).body.subscriptions.find((s: any) => s.group === "Texts").history;
    expect(history.filter((h: any) => h.detail.scope === "channel").map((h: any) => h.state)).toEqual([
      null,
      "unsubscribed",
      null,
      "unsubscribed",
    ]);
  });

  it("refuses a bad signature (403) and a replay of a real request with a changed body or a wrong signature, changing nothing", async () => {
    const id = await userWithPhone("forged-1", "+15551230004");
    const forged = await inbound({ From: "+15551230004", Body: "STOP" }, { token: "not-the-project-token" });
    expect(forged.status).toBe(403);
    expect(await smsStates(id)).toEqual({});

    // A real, correctly signed "hello" captured and replayed with STOP in the body keeps the old signature.
    const real = await inbound({ From: "+15551230004", Body: "hello" });
    expect(real.status).toBe(200);
    const replay = await fetch(baseUrl + webhookPath(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": real.signature },
      body: new URLSearchParams({ ...real.sent, Body: "STOP" }).toString(),
    });
    expect(replay.status).toBe(403);
    const garbled = await inbound(
      { From: "+15551230004", Body: "STOP" },
      { signature: `${real.signature.slice(0, -2)}==` },
    );
    expect(garbled.status).toBe(403);
    const unsigned = await fetch(baseUrl + webhookPath(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "From=%2B15551230004&Body=STOP",
    });
    expect(unsigned.status).toBe(403);
    expect(await smsStates(id)).toEqual({});
    expect((await canText(id)).allowed).toBe(true);
  });

  it("a replay of a correctly signed STOP is harmless: nothing new is recorded", async () => {
    const id = await userWithPhone("replay-1", "+15551230007");
    const first = await inbound({ From: "+15551230007", Body: "STOP" });
    const again = await fetch(baseUrl + webhookPath(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": first.signature },
      body: new URLSearchParams(first.sent).toString(),
    });
    expect(again.status).toBe(200);
    const [{ count }] =
      await sql`select count(*)::int as count from subscription_changes where project_id = ${p.projectId} and user_id = ${id}`;
    expect(count).toBe(3); // the channel opt-out and the two SMS groups, once
  });

  it("refuses a project without a Twilio token, an unknown project, and another project's token", async () => {
    const q = await createTestProject("no-twilio");
    expect((await inbound({ From: "+15551230005", Body: "STOP" }, { projectId: q.projectId })).status).toBe(403);
    expect(
      (await inbound({ From: "+15551230005", Body: "STOP" }, { projectId: "00000000-0000-7000-8000-000000000000" }))
        .status,
    ).toBe(403);
    expect((await inbound({ From: "+15551230005", Body: "STOP" }, { projectId: "not-a-uuid" })).status).toBe(403);
    await api("PATCH", q.admin("/subscription-groups/settings"), {
      key: q.keys.admin,
      body: { twilio_auth_token: "another-projects-token" },
    });
    // Signed with p's token but sent to q's webhook.
    expect(
      (await inbound({ From: "+15551230005", Body: "STOP" }, { projectId: q.projectId, token: TOKEN })).status,
    ).toBe(403);
  });

  it("a STOP from a phone no user has changes nothing; a phone shared by two users stops both", async () => {
    expect((await inbound({ From: "+15559999999", Body: "STOP" })).status).toBe(200);
    const a = await userWithPhone("shared-a", "+15551230006");
    const b = await userWithPhone("shared-b", "+15551230006");
    await inbound({ From: "+15551230006", Body: "STOP" });
    expect((await canText(a)).allowed).toBe(false);
    expect((await canText(b)).allowed).toBe(false);
  });
});
