import { beforeAll, describe, expect, it } from "vitest";
import { api, ownDatabaseForFile, baseUrl, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { Relay, RelayNotFoundError, RelayValidationError } from "./index";

// Counts event_intake rows: a database of its own, which no other file's worker drains.
ownDatabaseForFile("relay_sdk");

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("sdk");
});

/** A fetch that counts requests per path and can inject failures before passing through to the server. */
function spyFetch(inject: (n: number, url: string) => Response | Error | "lose-answer" | undefined = () => undefined) {
  const calls: string[] = [];
  const f = async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(url)).pathname;
    calls.push(path);
    const injected = inject(calls.length, path);
    if (injected instanceof Error) throw injected;
    if (injected instanceof Response) return injected;
    const res = await fetch(url, init);
    if (injected === "lose-answer") throw new TypeError("fetch failed: socket hang up"); // delivered, but the answer is lost
    return res;
  };
  return { calls, fetch: f as typeof fetch };
}

const intakeCount = async (name: string) =>
  (await sql`select count(*)::int as n from event_intake where project_id = ${p.projectId} and name = ${name}`)[0]!
    .n as number;

describe("Relay SDK against the real server", () => {
  it("camelCase in, snake_case on the wire, camelCase out; data keys are the caller's and stay as sent", async () => {
    const relay = new Relay({ apiKey: p.keys.client, baseUrl });
    const user = await relay.users.upsert({
      identifier: [{ externalId: "sdk-1" }],
      email: "sdk@example.com",
      data: { firstName: "Ada", plan_name: "pro" },
    });
    expect(user.identifier[0]).toMatchObject({ source: "default", externalId: "sdk-1" });
    expect(user.data).toEqual({ firstName: "Ada", plan_name: "pro" });
    expect(Date.parse(user.createdAt)).not.toBeNaN();
    const [row] = await sql`select data from users where project_id = ${p.projectId} and id = ${user.id}`;
    expect(row!.data).toEqual({ firstName: "Ada", plan_name: "pro" });

    const batch = await relay.users.batch([
      { identifier: [{ externalId: "sdk-2" }] },
      { identifier: [{ externalId: "sdk-1" }], locale: "en" },
    ]);
    expect(batch).toMatchObject({ created: 1, updated: 1 });

    const org = await relay.organizations.upsert({ identifier: [{ externalId: "sdk-org" }], name: "SDK Org" });
    const member = await relay.organizations.members.add({
      organization: { identifier: [{ externalId: "sdk-org" }] },
      user: { identifier: [{ externalId: "sdk-1" }] },
      data: { role: "owner" },
    });
    expect(member).toMatchObject({ organizationId: org.id, userId: user.id, data: { role: "owner" } });
    const assignment = await relay.users.schedules.assign({
      name: "sdk_trial",
      identifier: [{ externalId: "sdk-1" }],
      scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(assignment.name).toBe("sdk_trial");
    await relay.users.schedules.remove({ name: "sdk_trial", identifier: [{ externalId: "sdk-1" }] });
    await relay.organizations.members.remove({
      organization: { identifier: [{ externalId: "sdk-org" }] },
      user: { identifier: [{ externalId: "sdk-1" }] },
    });
    await relay.organizations.delete({ identifier: [{ externalId: "sdk-org" }] });
    await relay.users.delete({ identifier: [{ externalId: "sdk-2" }] });
    await expect(relay.users.delete({ identifier: [{ externalId: "sdk-2" }] })).rejects.toBeInstanceOf(
      RelayNotFoundError,
    );
    await relay.close();
  });

  it("batches events: 250 tracks are 3 requests of at most 100, each event with its own client id", async () => {
    const spy = spyFetch();
    const relay = new Relay({ apiKey: p.keys.client, baseUrl, fetch: spy.fetch });
    const done = Array.from({ length: 250 }, (_, i) =>
      relay.users.events.track({ name: "sdk_batched", identifier: [{ externalId: `b-${i % 5}` }], data: { i } }),
    );
    await relay.flush();
    await Promise.all(done);
    expect(spy.calls).toEqual(["/api/client/users/events", "/api/client/users/events", "/api/client/users/events"]);
    expect(await intakeCount("sdk_batched")).toBe(250);
    const ids =
      await sql`select count(distinct client_id)::int as n from event_intake where project_id = ${p.projectId} and name = 'sdk_batched'`;
    expect(ids[0]!.n).toBe(250);
    await relay.close();
  });

  it("sends a partial batch after flushIntervalMs without flush()", async () => {
    const spy = spyFetch();
    const relay = new Relay({ apiKey: p.keys.client, baseUrl, fetch: spy.fetch, flushIntervalMs: 300 });
    const sent = relay.organizations.events.track({ name: "sdk_timer", identifier: [{ externalId: "sdk-org-t" }] });
    expect(spy.calls).toEqual([]);
    await sent;
    expect(spy.calls).toEqual(["/api/client/organizations/events"]);
    await relay.close();
  });

  it("retries network errors and 503; a lost answer retried is not a doubled event", async () => {
    const spy = spyFetch((n) =>
      n === 1
        ? "lose-answer"
        : n === 2
          ? new Response(null, { status: 503 })
          : n === 3
            ? new TypeError("fetch failed")
            : undefined,
    );
    const relay = new Relay({ apiKey: p.keys.client, baseUrl, fetch: spy.fetch, retryBaseMs: 10 });
    await relay.users.events.track({ name: "sdk_retried", identifier: [{ externalId: "r-1" }], data: {} });
    await relay.flush();
    expect(spy.calls.length).toBe(4);
    expect(await intakeCount("sdk_retried")).toBe(1);
    await relay.close();
  });

  it("messages.send: a lost answer retried is one message, the same answer; another body with the key is a 422", async () => {
    const t = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: { name: "sdk-receipt", channel: "email", transactional: true, subject: "R {{ data.order_id }}", text: "r" },
    });
    expect(t.status).toBe(201);
    await new Relay({ apiKey: p.keys.client, baseUrl }).users.upsert({
      identifier: [{ externalId: "send-1" }],
      email: "send-1@example.com",
    });
    const spy = spyFetch((n) => (n === 1 ? "lose-answer" : undefined));
    const relay = new Relay({ apiKey: p.keys.client, baseUrl, fetch: spy.fetch, retryBaseMs: 10 });
    const input = { template: "sdk-receipt", identifier: [{ externalId: "send-1" }], data: { order_id: "A-1" } };
    const sent = await relay.messages.send(input);
    expect(spy.calls).toEqual(["/api/client/messages", "/api/client/messages"]);
    expect(sent).toEqual({ id: expect.any(String), state: "queued" });
    const [row] = await sql`select count(*)::int as n from messages where project_id = ${p.projectId}`;
    expect(row!.n).toBe(1);
    const again = await relay.messages.send(input, { idempotencyKey: "sdk-order-1" });
    const other = relay.messages.send({ ...input, data: { order_id: "A-2" } }, { idempotencyKey: "sdk-order-1" });
    await expect(other).rejects.toBeInstanceOf(RelayValidationError);
    expect(again.id).not.toBe(sent.id);
  });

  it("honours Retry-After on 429", async () => {
    const spy = spyFetch((n) =>
      n === 1 ? new Response(null, { status: 429, headers: { "retry-after": "1" } }) : undefined,
    );
    const relay = new Relay({ apiKey: p.keys.client, baseUrl, fetch: spy.fetch, retryBaseMs: 1 });
    const started = Date.now();
    await relay.users.upsert({ identifier: [{ externalId: "rl-1" }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(spy.calls.length).toBe(2);
  });

  it("never retries a 400; the typed error carries the problem's errors[]", async () => {
    const spy = spyFetch();
    const relay = new Relay({ apiKey: p.keys.client, baseUrl, fetch: spy.fetch });
    const err = await relay.users
      .upsert({ identifier: [{ externalId: "bad" }], locale: "not a locale" })
      .catch((e) => e);
    expect(err).toBeInstanceOf(RelayValidationError);
    expect(err.status).toBe(400);
    expect(err.errors.map((e: { path: string }) => e.path)).toEqual(["locale"]);
    expect(spy.calls.length).toBe(1);
    const errors: unknown[] = [];
    const events = new Relay({ apiKey: p.keys.client, baseUrl, fetch: spy.fetch, onError: (e) => errors.push(e) });
    await expect(
      events.users.events.track({ name: "user.created", identifier: [{ externalId: "x" }], data: {} }),
    ).rejects.toBeInstanceOf(RelayValidationError);
    expect(errors).toHaveLength(1);
  });
});
