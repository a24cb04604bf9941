import { createServer, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, sql } from "@/scripts/test/helpers";
import { waitFor } from "@/scripts/test/worker";
import { finalRow, newUser, p, queue, sink, template, useMessagesProject } from "@/test/fixtures/messages";

/*
 * A provider in trouble, against a real worker: an SMTP provider's `rate_per_second` measured at the
 * receiver, and a loopback stand-in for Twilio's Messages API answering 5xx (retried), not answering at
 * all (timed out, retried) and refusing for good with a 4xx (failed with its reason).
 */
useMessagesProject("relay_messages_provider_faults");

type Plan = { status: number; body?: Record<string, unknown> } | "hang";

describe("provider faults", () => {
  const plans = new Map<string, Plan[]>();
  const requests: { to: string; at: number }[] = [];
  const hanging: ServerResponse[] = [];
  let twilio: ReturnType<typeof createServer>;
  let sms: string;

  beforeAll(async () => {
    // Answers each request by its To number's plan (next answer first), else 201 with a sid.
    twilio = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const to = new URLSearchParams(body).get("To") ?? "";
        requests.push({ to, at: Date.now() });
        const plan = plans.get(to)?.shift() ?? { status: 201 };
        if (plan === "hang") return void hanging.push(res);
        res.writeHead(plan.status, { "content-type": "application/json" });
        res.end(JSON.stringify(plan.body ?? { sid: `SM${requests.length}` }));
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
        account_sid: "AC1",
        auth_token: "token",
        from: "+15005550006",
        api_base: `http://127.0.0.1:${port}`,
      },
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const group = await api("POST", p.admin("/subscription-groups"), {
      key: p.keys.admin,
      body: { name: "Texts", channel: "sms" },
    });
    sms = (
      await api("POST", p.admin("/templates"), {
        key: p.keys.editor,
        body: { name: "sms", channel: "sms", subscription_group: group.body.id, text: "Code 1234" },
      })
    ).body.id;
  });
  afterAll(async () => {
    for (const res of hanging) res.destroy();
    twilio.closeAllConnections();
    await new Promise<void>((r) => twilio.close(() => r()));
  });

  const sent = (phone: string) => requests.filter((r) => r.to === phone);

  it("retries Twilio 5xx answers until one is accepted", async () => {
    const phone = "+4915100000001";
    plans.set(phone, [
      { status: 503, body: { code: 20503, message: "Service Unavailable" } },
      { status: 500, body: { message: "Internal Server Error" } },
    ]);
    const user = await newUser({ phone });
    const m = await queue({ templateId: sms, userId: user.id });
    expect(await finalRow(m.id)).toMatchObject({ state: "sent", attempts: 3, recipient: phone });
    expect(sent(phone)).toHaveLength(3);
  });

  it("fails a permanent 4xx for good with Twilio's code and message, after one request", async () => {
    const phone = "+4915100000002";
    plans.set(phone, [{ status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number." } }]);
    const user = await newUser({ phone });
    const m = await queue({ templateId: sms, userId: user.id });
    const row = await finalRow(m.id);
    expect(row).toMatchObject({ state: "failed", attempts: 1 });
    expect(row.reason).toBe("400 (21211): The 'To' number is not a valid phone number.");
    expect(sent(phone)).toHaveLength(1);
  });

  it("times out a Twilio that never answers and retries it", async () => {
    const phone = "+4915100000003";
    plans.set(phone, ["hang"]);
    const user = await newUser({ phone });
    const m = await queue({ templateId: sms, userId: user.id });
    await waitFor(async () => sent(phone).length >= 1, 20_000, "the first request");
    // The provider call's own timeout (15 s) ends the first attempt: a second request, then sent.
    const row = await waitFor(
      async () => {
        const [r] = await sql`select state, attempts, reason from messages where id = ${m.id}`;
        return r!.state !== "queued" && r;
      },
      40_000,
      "the message final",
    );
    expect(row).toMatchObject({ state: "sent", attempts: 2 });
    expect(sent(phone)).toHaveLength(2);
    expect(sent(phone)[1]!.at - sent(phone)[0]!.at).toBeGreaterThanOrEqual(14_000);
  }, 60_000);

  it("holds an SMTP provider's rate_per_second, measured over the receiver's arrival times", async () => {
    const RATE = 5;
    const N = 20;
    const provider = await api("POST", p.admin("/providers"), {
      key: p.keys.admin,
      body: {
        channel: "email",
        kind: "smtp",
        name: "Throttled sink",
        url: `smtp://127.0.0.1:${sink.port}`,
        from: "Throttled <t@relay.example.test>",
        rate_per_second: RATE,
      },
    });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const templateId = await template({ subject: "Rate", text: "r" });
    const users = await Promise.all(Array.from({ length: N }, () => newUser()));
    const queued = await Promise.all(users.map((u) => queue({ templateId, userId: u.id })));
    for (const m of queued) expect((await finalRow(m.id)).state).toBe("sent");
    const at = users.map((u) => sink.to(u.email!)[0]!.at).sort((a, b) => a - b);
    expect(at).toHaveLength(N);
    // The limiter grants RATE slots per one-second window, so the i-th grant (0-based, in time order) comes
    // at least floor(i / RATE) windows after the first window began, and the i-th arrival is no earlier
    // than the i-th grant. Arrivals are only ever later than their grants (a loaded machine bunches them),
    // so each one is held to that lower bound, less one window and half a second for the first message's
    // own way to the receiver (a pool connection opening). Unthrottled, all N arrive within ~0.5 s.
    const windows = Math.ceil(N / RATE);
    const span = at[N - 1]! - at[0]!;
    console.log(`[rate] arrivals (ms after the first): ${at.map((t) => t - at[0]!).join(" ")}`);
    const early = at
      .map((t, i) => ({ i, after: t - at[0]!, bound: (Math.floor(i / RATE) - 1) * 1000 - 500 }))
      .filter((a) => a.after < a.bound);
    expect(early).toEqual([]);
    // Nor much slower than the rate allows.
    expect(span).toBeLessThan((windows + 2) * 1000);
  });
});
