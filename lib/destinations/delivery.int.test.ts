import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import {
  at,
  create,
  destinationsForFile,
  p,
  replaceWorker,
  rx,
  track,
  deliveries,
} from "../../test/fixtures/destinations";

/*
 * Destinations deliver: which events go where (names, patterns, data filters), the message's shape and
 * signature, where a delivery shows (trace, timeline), and what is never followed or reached (redirects,
 * a name that resolves to a forbidden address). The real server, a real worker, a verifying receiver.
 */
destinationsForFile("relay_destinations_delivery");

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
});

describe("connect-time address check", () => {
  it("refuses a name allowed by the list when it resolves to a forbidden address", async () => {
    // The server allows `localhost` by name (so create accepts it); this worker lists no address, so
    // the address `localhost` resolves to (loopback) is refused when connecting.
    await replaceWorker("SIGTERM", {
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
