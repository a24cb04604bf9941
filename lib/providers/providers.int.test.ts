import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, sql } from "@/scripts/test/helpers";
import { waitFor } from "@/scripts/test/worker";
import { finalRow, newUser, p, queue, sink, useMessagesProject, worker } from "@/test/fixtures/messages";

/*
 * Providers: secrets sealed and never shown, outbound hosts checked, and SMS through a loopback stand-in
 * for Twilio's Messages API.
 */
useMessagesProject("relay_messages_providers");

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
    // The web writes its request log a second or so later: wait for the five requests above to be in it.
    const logged = await waitFor(
      async () => {
        const [r] = await sql`select count(*)::int as n,
          coalesce(string_agg(coalesce(body, '') || coalesce(errors::text, ''), ' '), '') as t
        from api_requests where project_id = ${p.projectId} and path like '%/providers'`;
        return r!.n >= 5 && [r!];
      },
      15_000,
      "the request log flushed",
    );
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
