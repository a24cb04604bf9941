import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, ownDatabaseForFile, sql, type TestProject } from "../../scripts/test/helpers";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";
import { startReceiver } from "../../scripts/test/webhook-receiver";

/*
 * Destinations end to end: the real server, a real worker, and a real receiver on 127.0.0.1 that
 * verifies every message with the `standardwebhooks` package.
 */
// A database of its own: a worker of another file (default retry schedule) must not claim these deliveries.
ownDatabaseForFile("relay_destinations");

let p: TestProject;
let worker: TestWorker;
let rx: Awaited<ReturnType<typeof startReceiver>>;
const secrets = new Map<string, string>();
const WORKER_ENV = {
  AUTH_SECRET: "test-secret-not-for-production",
  DESTINATIONS_ALLOW_HOSTS: "127.0.0.1,localhost",
  DESTINATION_RETRY_SCHEDULE: "200ms,300ms,500ms,1s,1s,2s,2s,3s,5s",
  DESTINATION_POLL_MS: "100",
  // 10 s by default: lowered so the timeout is seen in seconds.
  DESTINATION_ATTEMPT_TIMEOUT: "2s",
};

const create = async (body: Record<string, unknown>, key = p.keys.editor) => {
  const res = await api("POST", p.admin("/destinations"), { key, body });
  if (res.status === 201) {
    secrets.set(new URL(res.body.url).pathname, res.body.secret);
    rx.setSecrets([...new Set(secrets.values())]);
  }
  return res;
};
const track = (events: { name: string; user: string; data?: Record<string, unknown>; id?: string }[]) =>
  api("POST", p.client("/users/events"), {
    key: p.keys.client,
    body: events.map((e) => ({ name: e.name, identifier: [{ external_id: e.user }], data: e.data ?? {}, id: e.id })),
  });
const at = (path: string) => rx.received.filter((r) => r.path === path);
const deliveries = async (id: string, query = "") =>
  (await api("GET", p.admin(`/destinations/${id}/deliveries${query}`), { key: p.keys.support })).body;

beforeAll(async () => {
  p = await createTestProject("destinations");
  rx = await startReceiver();
  worker = await startWorker(process.env.DATABASE_URL!, WORKER_ENV);
});

afterAll(async () => {
  await worker?.stop("SIGKILL");
  await rx?.stop();
});

describe("the destinations API", () => {
  it("shows the secret once, hides it after, and lets editors write and support read", async () => {
    const made = await create({ name: "api", url: rx.url("/api"), events: ["Nothing"] });
    expect(made.status).toBe(201);
    expect(made.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const got = await api("GET", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support });
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(got.body.health).toMatchObject({ backlog: 0, attempts_24h: 0, success_rate_24h: null });
    const list = await api("GET", p.admin("/destinations"), { key: p.keys.support });
    expect(list.body.data.map((d: { id: string }) => d.id)).toContain(made.body.id);
    expect(JSON.stringify(list.body)).not.toContain("whsec_");
    const rows = async () =>
      (await sql`select name, enabled from destinations where project_id = ${p.projectId} order by name`).map(
        (r) => `${r.name}:${r.enabled}`,
      );
    const before = await rows();
    expect((await create({ name: "x", url: rx.url("/x"), events: ["*"] }, p.keys.support)).status).toBe(403);
    expect(
      (await api("PATCH", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support, body: { enabled: false } }))
        .status,
    ).toBe(403);
    expect((await api("DELETE", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support })).status).toBe(403);
    // The refusals wrote nothing: no destination made, the one there still on.
    expect(await rows()).toEqual(before);
    const del = await api("DELETE", p.admin(`/destinations/${made.body.id}`), { key: p.keys.editor });
    expect(del.status).toBe(204);
    expect((await api("GET", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support })).status).toBe(404);
    expect(await sql`select 1 from destinations where project_id = ${p.projectId} and id = ${made.body.id}`).toEqual(
      [],
    );
  });

  it.each([
    ["https://10.0.0.1/hook", "private"],
    ["http://10.0.0.1/hook", "https"],
    ["https://169.254.169.254/latest/meta-data", "link-local"],
    ["https://[::ffff:169.254.169.254]/x", "link-local"],
    ["https://[fd00::1]/x", "private"],
    ["https://127.0.0.2/x", "loopback"],
    ["http://example.com/hook", "https"],
    ["ftp://example.com/x", "https"],
    ["https://user:pw@example.com/x", "password"],
  ])("refuses %s at create with 400 naming url", async (url, word) => {
    const before = await sql`select count(*)::int as n from destinations where project_id = ${p.projectId}`;
    const res = await create({ name: "bad", url, events: ["*"] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe("url");
    expect(res.body.errors[0].message).toContain(word);
    const after = await sql`select count(*)::int as n from destinations where project_id = ${p.projectId}`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });
});

describe("delivery", () => {
  it("delivers by exact name, pattern and data filter, signed, in the message shape", async () => {
    const exact = (await create({ name: "exact", url: rx.url("/exact"), events: ["Order Completed"] })).body;
    const users = (await create({ name: "users", url: rx.url("/users"), events: ["user.*"] })).body;
    const pro = (await create({ name: "pro", url: rx.url("/pro"), events: ["*"], filter: { plan: "pro" } })).body;
    const journeys = (await create({ name: "journeys", url: rx.url("/journeys"), events: ["journey.*"] })).body;
    const journey = await api("POST", p.admin("/journeys"), {
      key: p.keys.editor,
      body: { name: "Onboarding", entrances: [{ kind: "event", event_name: "Order Completed" }] },
    });
    expect(journey.status).toBe(201);
    const res = await track([
      { name: "Order Completed", user: "ada", data: { plan: "pro", total: 42 } },
      { name: "Order Completed", user: "bob", data: { plan: "free" } },
      { name: "Viewed", user: "ada", data: { plan: "pro" } },
    ]);
    expect(res.status).toBe(202);
    await waitFor(
      async () => at("/exact").length >= 2 && at("/pro").length >= 2 && at("/journeys").length >= 2,
      30_000,
      "deliveries",
    );
    await waitFor(async () => at("/users").length >= 2, 30_000, "user.created deliveries");
    expect(at("/exact").map((r) => r.message.type)).toEqual(["Order Completed", "Order Completed"]);
    expect(
      at("/users")
        .map((r) => r.message.type)
        .sort(),
    ).toEqual(["user.created", "user.created"]);
    expect(
      at("/pro")
        .map((r) => r.message.type)
        .sort(),
    ).toEqual(["Order Completed", "Viewed"]);
    const ada = at("/exact").find((r) => r.message.data.event.data.plan === "pro")!;
    expect(ada.message.data.user.identifiers).toEqual([{ source: "default", external_id: "ada" }]);
    expect(ada.message.data.event).toMatchObject({ name: "Order Completed", data: { plan: "pro", total: 42 } });
    expect(ada.message.timestamp).toBe(ada.message.data.event.occurred_at);
    expect(ada.webhookId).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(ada.userAgent).toBe("Relay-Webhooks/1");
    const entered = at("/journeys").map((r) => r.message);
    expect(entered.map((m) => m.type)).toEqual(["journey.user.entered", "journey.user.entered"]);
    expect(entered[0]!.data.journey).toMatchObject({ id: journey.body.id, name: "Onboarding" });
    expect(entered[0]!.data.event.data).toHaveProperty("entry_id");
    expect(rx.unverified).toEqual([]);
    // The entry is an event like any other: in the event log too.
    const logged =
      await sql`select count(*)::int as n from events where project_id = ${p.projectId} and name = 'journey.user.entered'`;
    expect(logged[0]!.n).toBe(2);
    for (const d of [exact, users, pro, journeys])
      await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: false } });
  });

  it("shows each delivery in its event's trace and in its user's timeline", async () => {
    const d = (await create({ name: "traced", url: rx.url("/traced"), events: ["Traced"] })).body;
    await track([{ name: "Traced", user: "dora" }]);
    await waitFor(async () => at("/traced").length >= 1, 30_000, "the delivery");
    const [e] = await sql`select id, user_id from events where project_id = ${p.projectId} and name = 'Traced'`;
    const trace = await waitFor(
      async () => {
        const t = await api("GET", p.admin(`/events/${e!.id}/trace`), { key: p.keys.support });
        return t.body.deliveries?.[0]?.state === "delivered" ? t.body : null;
      },
      30_000,
      "the delivery's outcome in the trace",
    );
    expect(trace.deliveries).toHaveLength(1);
    expect(trace.deliveries[0]).toMatchObject({
      destination_id: d.id,
      event_id: e!.id,
      webhook_id: at("/traced")[0]!.webhookId,
    });
    const timeline = await api("GET", p.admin(`/users/${e!.user_id}/timeline`), { key: p.keys.support });
    expect(timeline.status).toBe(200);
    const item = timeline.body.data.find((i: { kind: string }) => i.kind === "delivery");
    expect(item).toMatchObject({ event_id: e!.id, detail: { destination_id: d.id, destination_name: "traced" } });
    await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: false } });
  });

  it("retries a failing receiver with one webhook-id and logs every attempt, resending once on a closed kept-alive connection", async () => {
    // A receiver of its own (so a pool of its own in the worker) that drops every kept-alive connection as
    // the next request arrives on it: each retry's first send dies before any answer, and the promised
    // resend on a new connection, within the same attempt, must hide it from the log.
    const own = await startReceiver(0, { closeKeptAlive: true });
    try {
      const made = await api("POST", p.admin("/destinations"), {
        key: p.keys.editor,
        body: { name: "flaky", url: own.url("/flaky"), events: ["Flaky"] },
      });
      const d = made.body;
      own.setSecrets([d.secret]);
      let calls = 0;
      own.answerWith(() => (++calls <= 2 ? 500 : 200));
      await track([{ name: "Flaky", user: "carl" }]);
      const log = await waitFor(async () => {
        const b = await deliveries(d.id);
        return b.data[0]?.state === "delivered" ? b : null;
      });
      const ids = new Set(own.received.map((r) => r.webhookId));
      expect(ids.size).toBe(1);
      expect(log.data[0].webhook_id).toBe([...ids][0]);
      type Attempt = { status: number | null; error: string | null; response: string | null };
      const attempts: Attempt[] = log.data[0].attempts;
      expect(attempts.map((a) => a.status)).toEqual([500, 500, 200]);
      expect(attempts[0]!.response).toBe("status 500");
      // Both retries met a closed kept-alive connection first.
      expect(own.closedKeptAlive).toBe(2);
      const health = (await api("GET", p.admin(`/destinations/${d.id}`), { key: p.keys.support })).body.health;
      expect(health.attempts_24h).toBe(3);
      expect(health.success_rate_24h).toBeCloseTo(1 / 3);
      expect(health.last_error).toBe("answered 500");
      await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: false } });
    } finally {
      await own.stop();
    }
  });

  it("loses nothing while the receiver is away, and filters the log by state", async () => {
    const d = (await create({ name: "away", url: rx.url("/away"), events: ["Away"] })).body;
    await rx.stop();
    await track(Array.from({ length: 20 }, (_, i) => ({ name: "Away", user: `away-${i}`, data: { i } })));
    await waitFor(
      async () => {
        const b = await deliveries(d.id, "?state=pending&limit=500");
        return b.data.length === 20 && b.data.every((x: { attempts: unknown[] }) => x.attempts.length >= 1);
      },
      30_000,
      "failed first attempts",
    );
    const pending = await deliveries(d.id, "?state=pending&limit=5");
    expect(pending.data).toHaveLength(5);
    expect(pending.next_cursor).toBeTruthy();
    const second = await deliveries(d.id, `?state=pending&limit=500&cursor=${pending.next_cursor}`);
    expect(second.data).toHaveLength(15);
    expect(pending.data[0].attempts[0].status).toBeNull();
    expect(pending.data[0].next_attempt_at).toBeTruthy();
    await rx.start();
    await waitFor(
      async () => new Set(at("/away").map((r) => r.message.data.event.data.i)).size === 20,
      30_000,
      "all 20",
    );
    await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: false } });
  });

  it("turns a destination off at once on 410 Gone, and says why", async () => {
    const d = (await create({ name: "gone", url: rx.url("/gone"), events: ["Gone"] })).body;
    rx.answerWith((r) => (r.path === "/gone" ? 410 : 200));
    await track([{ name: "Gone", user: "gone-1" }]);
    const off = await waitFor(async () => {
      const b = (await api("GET", p.admin(`/destinations/${d.id}`), { key: p.keys.support })).body;
      return b.enabled ? null : b;
    });
    expect(off.disabled_reason).toContain("410");
    const log = await deliveries(d.id);
    expect(log.data[0].state).toBe("failed");
    expect(log.data[0].attempts).toHaveLength(1);
    rx.answerWith(() => 200);
    // Turned on again: the reason is cleared and new events go out once more.
    const on = await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: true } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: null });
    await track([{ name: "Gone", user: "gone-2" }]);
    await waitFor(
      async () => at("/gone").some((r) => r.message.data.user.identifiers[0].external_id === "gone-2"),
      30_000,
      "a delivery after turning it on",
    );
    await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: false } });
  });

  it("gives up on an attempt that gets no answer within the attempt timeout, and retries it", async () => {
    const d = (await create({ name: "slow", url: rx.url("/slow"), events: ["Slow"] })).body;
    let calls = 0;
    rx.answerWith((r) => (r.path === "/slow" && ++calls === 1 ? "hang" : 200));
    await track([{ name: "Slow", user: "slow-1" }]);
    const log = await waitFor(async () => {
      const b = await deliveries(d.id);
      return b.data[0]?.state === "delivered" ? b : null;
    });
    const [first, second] = log.data[0].attempts;
    expect(first).toMatchObject({ status: null, error: "no answer within 2 s" });
    expect(first.latency_ms).toBeGreaterThanOrEqual(1_900);
    expect(first.latency_ms).toBeLessThan(10_000);
    expect(second.status).toBe(200);
    rx.answerWith(() => 200);
    await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: false } });
  });

  it("does not follow redirects: a 3xx is a failed attempt", async () => {
    const d = (await create({ name: "redirect", url: rx.url("/redirect"), events: ["Redirect"] })).body;
    rx.answerWith((r) => (r.path === "/redirect" ? 307 : 200));
    await track([{ name: "Redirect", user: "redir" }]);
    const log = await waitFor(async () => {
      const b = await deliveries(d.id);
      return b.data[0]?.attempts.length ? b : null;
    });
    expect(log.data[0].attempts[0].status).toBe(307);
    expect(log.data[0].state).toBe("pending");
    // A followed redirect would have been requested within that attempt, before its outcome was written.
    expect(at("/redirect-redirected")).toEqual([]);
    rx.answerWith(() => 200);
    await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: false } });
  });

  it("rotates the secret: both signatures verify during the overlap", async () => {
    const made = await create({ name: "rotate", url: rx.url("/rotate"), events: ["Rotate"] });
    const old = made.body.secret as string;
    const rotated = await api("POST", p.admin(`/destinations/${made.body.id}/rotate-secret`), { key: p.keys.editor });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(old);
    expect(Date.parse(rotated.body.previous_secret_until) - Date.now()).toBeGreaterThan(23 * 3600_000);
    rx.setSecrets([old, rotated.body.secret]);
    await track([{ name: "Rotate", user: "rot" }]);
    await waitFor(async () => at("/rotate").length >= 1);
    expect(at("/rotate")[0]!.verifiedBy).toEqual([0, 1]);
    expect(at("/rotate")[0]!.signature.split(" ")).toHaveLength(2);
    const view = (await api("GET", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support })).body;
    expect(view.secret_rotating_until).toBe(rotated.body.previous_secret_until);
    secrets.set("/rotate", rotated.body.secret);
    rx.setSecrets([...new Set([...secrets.values(), old])]);
  });

  it("sends a signed test ping and answers with its attempt", async () => {
    const d = (await create({ name: "ping", url: rx.url("/ping"), events: ["Never"] })).body;
    const res = await api("POST", p.admin(`/destinations/${d.id}/test`), { key: p.keys.editor });
    expect(res.status).toBe(200);
    expect(res.body.state).toBe("delivered");
    expect(res.body.attempts[0].status).toBe(200);
    expect(at("/ping")[0]!.message.type).toBe("relay.ping");
  });

  it("retries a delivery by hand with its webhook-id, and replays a window (admin only)", async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const d = (await create({ name: "replay", url: rx.url("/replay"), events: ["Replay"] })).body;
    await track([
      { name: "Replay", user: "r1" },
      { name: "Replay", user: "r2" },
    ]);
    // Both outcomes written before the retry by hand, so the worker's write cannot land after it.
    const both = await waitFor(async () => {
      const b = await deliveries(d.id);
      return b.data.length === 2 && b.data.every((x: { state: string }) => x.state === "delivered") ? b : null;
    });
    const first = both.data[0];
    const retried = await api("POST", p.admin(`/destinations/${d.id}/deliveries/${first.id}/retry`), {
      key: p.keys.editor,
    });
    expect(retried.status).toBe(202);
    await waitFor(async () => at("/replay").length >= 3);
    expect(at("/replay")[2]!.webhookId).toBe(first.webhook_id);
    const again = await waitFor(async () => {
      const b = await deliveries(d.id);
      const x = b.data.find((y: { id: string }) => y.id === first.id);
      return x?.state === "delivered" && x.attempts.length === 2 ? x : null;
    });
    expect(again.attempts.map((a: { status: number }) => a.status)).toEqual([200, 200]);
    const body = { since };
    expect((await api("POST", p.admin(`/destinations/${d.id}/replay`), { key: p.keys.editor, body })).status).toBe(403);
    // A window past the rules (here 7 days) is a well-formed body breaking a rule: 422, and nothing queued.
    const queuedFor = async () =>
      (
        await sql`select count(*)::int as n from destination_deliveries where project_id = ${p.projectId} and destination_id = ${d.id}`
      )[0]!.n;
    const queuedBefore = await queuedFor();
    const tooWide = { since: new Date(Date.now() - 8 * 86_400_000).toISOString() };
    const wide = await api("POST", p.admin(`/destinations/${d.id}/replay`), { key: p.keys.admin, body: tooWide });
    expect(wide.status).toBe(422);
    expect(wide.body.errors[0].path).toBe("since");
    expect(await queuedFor()).toBe(queuedBefore);
    const replay = await api("POST", p.admin(`/destinations/${d.id}/replay`), { key: p.keys.admin, body });
    expect(replay.status).toBe(202);
    expect(replay.body.queued).toBe(2);
    await waitFor(async () => at("/replay").length >= 5);
    const users = at("/replay")
      .slice(3)
      .map((r) => r.message.data.user.identifiers[0].external_id)
      .sort();
    expect(users).toEqual(["r1", "r2"]);
    expect(new Set(at("/replay").map((r) => r.webhookId)).size).toBe(4);
  });

  it("loses nothing when the worker is SIGKILLed during deliveries", async () => {
    const d = (await create({ name: "kill", url: rx.url("/kill"), events: ["Kill"] })).body;
    rx.answerWith((r) => (r.path === "/kill" && Number(r.message.data.event.data.i) % 3 === 0 ? "hang" : 200));
    await track(Array.from({ length: 150 }, (_, i) => ({ name: "Kill", user: `k-${i % 30}`, data: { i } })));
    await waitFor(async () => at("/kill").length >= 30, 30_000, "deliveries under way");
    await worker.stop("SIGKILL");
    rx.answerWith(() => 200);
    worker = await startWorker(process.env.DATABASE_URL!, WORKER_ENV);
    await waitFor(
      async () =>
        new Set(
          at("/kill")
            .filter((r) => r.answered === 200)
            .map((r) => r.message.data.event.data.i),
        ).size === 150,
      90_000,
      "all 150 after the kill",
    );
    const log = await waitFor(async () => {
      const b = await deliveries(d.id, "?state=pending");
      return b.data.length === 0 ? b : null;
    }, 30_000);
    expect(log.data).toEqual([]);
  }, 180_000);
});

describe("connect-time address check", () => {
  it("refuses a name allowed by the list when it resolves to a forbidden address", async () => {
    // The server allows `localhost` by name (so create accepts it); this worker lists no address, so
    // the address `localhost` resolves to (loopback) is refused when connecting.
    await worker.stop("SIGTERM");
    worker = await startWorker(process.env.DATABASE_URL!, {
      ...WORKER_ENV,
      DESTINATIONS_ALLOW_HOSTS: "localhost",
      // Seconds instead of 3 days, so the same failing destination shows being turned off for it.
      DESTINATION_DISABLE_AFTER: "2s",
    });
    const url = `http://localhost:${rx.port}/rebind`;
    const made = await create({ name: "rebind", url, events: ["Rebind"] });
    expect(made.status).toBe(201);
    await track([{ name: "Rebind", user: "rb" }]);
    const log = await waitFor(async () => {
      const b = await deliveries(made.body.id);
      return b.data[0]?.attempts.length ? b : null;
    });
    expect(log.data[0].attempts[0].status).toBeNull();
    expect(log.data[0].attempts[0].error).toMatch(/refused to connect: localhost resolves to 127\.0\.0\.1/);
    expect(at("/rebind")).toEqual([]);
    const off = await waitFor(async () => {
      const b = (await api("GET", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support })).body;
      return b.enabled ? null : b;
    });
    expect(off.disabled_reason).toMatch(/^Turned off: every attempt failed since /);
    expect(off.health.last_error).toMatch(/refused to connect/);
  }, 180_000);
});
