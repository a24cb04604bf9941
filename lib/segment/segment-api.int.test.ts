import RudderAnalytics from "@rudderstack/rudder-sdk-node";
import { Analytics } from "@segment/analytics-node";
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";

/** The real @segment/analytics-node client pointed at our server: only `host` (and here `flushAt`) change. */
function segmentClient(key: string, opts: { path?: string } = {}) {
  const failures: unknown[] = [];
  const client = new Analytics({
    writeKey: key,
    host: baseUrl,
    ...(opts.path ? { path: opts.path } : {}),
    flushAt: 50,
    flushInterval: 200,
    maxRetries: 1,
  });
  client.on("error", (e) => failures.push(e));
  return { client, failures };
}

const intake = (projectId: string) =>
  sql`select name, identifier, data, client_id, occurred_at from event_intake where project_id = ${projectId} union all
      select e.name, null, e.data, null, e.occurred_at from events e where e.project_id = ${projectId} and e.name not like '%.%' order by occurred_at`;

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("segment");
});

describe("Segment HTTP API with @segment/analytics-node", () => {
  it("identify, group, track, page, screen and alias land as users, organizations, memberships and events", async () => {
    const { client, failures } = segmentClient(p.keys.client); // default path /v1/batch, served by a rewrite
    client.identify({
      userId: "seg-1",
      anonymousId: "anon-1",
      traits: { email: "seg@example.com", timezone: "Europe/Paris", plan: "pro" },
    });
    client.group({ userId: "seg-1", groupId: "acme", traits: { name: "Acme", tier: "gold" } });
    client.track({
      userId: "seg-1",
      event: "Order Completed",
      properties: { total: 42 },
      timestamp: new Date("2026-03-01T10:00:00Z"),
      messageId: "msg-1",
    });
    client.page({ anonymousId: "anon-1", name: "Pricing", properties: { path: "/pricing" } });
    client.screen({ userId: "seg-1", name: "Home" });
    client.alias({ userId: "seg-1", previousId: "anon-2" });
    await client.closeAndFlush({ timeout: 20_000 });
    expect(failures).toEqual([]);

    const [user] =
      await sql`select u.id, u.email, u.timezone, u.data from users u join user_identifiers i on i.user_id = u.id
      where i.project_id = ${p.projectId} and i.source = 'default' and i.external_id = 'seg-1'`;
    expect(user).toMatchObject({ email: "seg@example.com", timezone: "Europe/Paris", data: { plan: "pro" } });
    const ids =
      await sql`select source, external_id from user_identifiers where project_id = ${p.projectId} and user_id = ${user!.id} order by source, external_id`;
    expect(ids.map((r) => `${r.source}:${r.external_id}`)).toEqual([
      "anonymous:anon-1",
      "anonymous:anon-2",
      "default:seg-1",
    ]);
    const [member] =
      await sql`select o.name, o.data from organization_members m join organizations o on o.id = m.organization_id where m.project_id = ${p.projectId} and m.user_id = ${user!.id}`;
    expect(member).toMatchObject({ name: "Acme", data: { tier: "gold" } });

    const events = (await intake(p.projectId)).filter((e) => !e.name.includes(".")); // system events go through intake too
    const byName = new Map(events.map((e) => [e.name, e]));
    expect([...byName.keys()].sort()).toEqual(["Order Completed", "page_viewed", "screen_viewed"]);
    const order = byName.get("Order Completed")!;
    expect(order.data).toMatchObject({
      total: 42,
      segment: { context: { library: { name: "@segment/analytics-node" } } },
    });
    expect(new Date(order.occurred_at).toISOString()).toBe("2026-03-01T10:00:00.000Z");
    expect(byName.get("page_viewed")!.data).toMatchObject({ name: "Pricing", path: "/pricing" });
    expect(JSON.stringify(events)).not.toContain(p.keys.client); // the writeKey in the batch body is never stored
  });

  it("RudderStack's Node SDK with its defaults (gzip on, axios's form content type) lands its calls", async () => {
    const failures: unknown[] = [];
    const client = new RudderAnalytics(p.keys.client, {
      dataPlaneUrl: baseUrl,
      flushAt: 50,
      flushInterval: 200,
      retryCount: 0,
      logLevel: "error",
      errorHandler: (e) => failures.push(e),
    });
    client.identify({ userId: "rs-1", traits: { email: "rs@example.com", plan: "team" } });
    client.track({ userId: "rs-1", event: "Rudder Gzipped", properties: { total: 7 } });
    client.group({ userId: "rs-1", groupId: "rs-org", traits: { name: "Rudder Org" } });
    await client.flush();
    expect(failures).toEqual([]);
    const [user] = await sql`select u.email, u.data from users u join user_identifiers i on i.user_id = u.id
      where i.project_id = ${p.projectId} and i.source = 'default' and i.external_id = 'rs-1'`;
    expect(user).toMatchObject({ email: "rs@example.com", data: { plan: "team" } });
    const tracked = (await intake(p.projectId)).filter((e) => e.name === "Rudder Gzipped");
    expect(tracked).toHaveLength(1);
    expect(tracked[0]!.data).toMatchObject({ total: 7 });
  });

  it("a retried batch is not doubled: messageId is the client event id", async () => {
    const body = {
      batch: [{ type: "track", userId: "dup-1", event: "Retried", messageId: "same-id", properties: {} }],
    };
    const auth = { authorization: `Basic ${Buffer.from(`${p.keys.client}:`).toString("base64")}` };
    for (let i = 0; i < 3; i++) {
      const res = await api("POST", "/api/v1/batch", { headers: auth, body });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
    }
    const rows = (await intake(p.projectId)).filter((e) => e.name === "Retried");
    expect(rows).toHaveLength(1);
  });

  it("single /v1/page and /v1/screen calls record page_viewed and screen_viewed with name, category and properties", async () => {
    const key = p.keys.client;
    const page = await api("POST", "/v1/page", {
      key,
      body: { userId: "pager-1", name: "Pricing", category: "Docs", properties: { path: "/pricing" } },
    });
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ success: true });
    const screen = await api("POST", "/api/v1/screen", {
      key,
      body: { anonymousId: "screener-1", name: "Home", properties: { tab: "feed" } },
    });
    expect(screen.status).toBe(200);
    expect(screen.body).toEqual({ success: true });
    const rows = (await intake(p.projectId)).filter((e) => e.name === "page_viewed" || e.name === "screen_viewed");
    const pageRow = rows.find(
      (r) => r.name === "page_viewed" && r.data.name === "Pricing" && r.data.category === "Docs",
    );
    expect(pageRow?.data).toMatchObject({ name: "Pricing", category: "Docs", path: "/pricing" });
    const screenRow = rows.find((r) => r.name === "screen_viewed" && r.data.tab === "feed");
    expect(screenRow?.data).toMatchObject({ name: "Home", tab: "feed" });
    // A page call without a user is refused like any Segment call naming no one, and writes nothing.
    const nobody = await api("POST", "/v1/page", { key, body: { name: "Lost" } });
    expect(nobody.status).toBe(400);
    expect((await intake(p.projectId)).some((e) => e.data?.name === "Lost")).toBe(false);
  });

  it("single calls answer 200 {success:true}; a malformed one is problem+json 400 naming the field and writes nothing", async () => {
    const key = p.keys.client;
    expect((await api("POST", "/v1/track", { key, body: { userId: "single-1", event: "Single" } })).body).toEqual({
      success: true,
    });
    expect(
      (await api("POST", "/api/v1/identify", { key, body: { anonymousId: "single-anon", traits: { name: "X" } } }))
        .status,
    ).toBe(200);

    const cases: Array<[string, unknown, string[]]> = [
      ["/api/v1/track", { event: "No one" }, ["userId"]],
      ["/api/v1/track", { userId: "u", event: 5 }, ["event"]],
      ["/api/v1/track", { userId: "u", event: "e", timestamp: "yesterday" }, ["timestamp"]],
      ["/api/v1/track", { userId: "u", event: "e", properties: "nope" }, ["properties"]],
      ["/api/v1/identify", { userId: "u", traits: { email: "not-an-email" } }, ["traits.email"]],
      ["/api/v1/group", { userId: "u", traits: {} }, ["groupId"]],
      ["/api/v1/alias", { userId: "u" }, ["previousId"]],
      [
        "/api/v1/batch",
        {
          batch: [
            { type: "track", userId: "u", event: "ok" },
            { type: "track", userId: "u" },
          ],
        },
        ["batch[1].event"],
      ],
      [
        "/api/v1/batch",
        { batch: [{ type: "identify", userId: "u", traits: { phone: "555" } }] },
        ["batch[0].traits.phone"],
      ],
      ["/api/v1/batch", { batch: [] }, ["batch"]],
    ];
    for (const [path, body, paths] of cases) {
      const res = await api("POST", path, { key, body });
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect(
        res.body.errors.map((e: any) => e.path),
        JSON.stringify(body),
      ).toEqual(paths);
    }
    // An atomic batch: the identify before the bad message is not written either.
    const atomic = await api("POST", "/api/v1/batch", {
      key,
      body: {
        batch: [
          { type: "identify", userId: "atomic-1" },
          { type: "track", userId: "atomic-1", event: "user.created" },
        ],
      },
    });
    expect(atomic.status).toBe(400);
    // Nothing of any refused call exists: no record or identifier for the ids they name, nothing queued or
    // recorded for them. (Asked by id, not by table totals: other files' workers share the database and may
    // be recording the accepted calls above at the same moment.)
    const [traces] = await sql`select
      (select count(*) from user_identifiers where project_id = ${p.projectId} and external_id in ('u', 'atomic-1'))::int as identifiers,
      (select count(*) from event_intake where project_id = ${p.projectId} and name in ('e', 'ok', 'No one'))::int as queued,
      (select count(*) from events where project_id = ${p.projectId} and name in ('e', 'ok', 'No one'))::int as recorded`;
    expect(traces).toEqual({ identifiers: 0, queued: 0, recorded: 0 });
  });

  it("unknown fields are kept, not refused; auth is the key as Basic user; other roles and keys are refused", async () => {
    const basic = (k: string) => ({ authorization: `Basic ${Buffer.from(`${k}:`).toString("base64")}` });
    const ok = await api("POST", "/api/v1/track", {
      headers: basic(p.keys.client),
      body: { userId: "kept-1", event: "Kept", futureField: { a: 1 }, channel: "server" },
    });
    expect(ok.status).toBe(200);
    const [row] = (await intake(p.projectId)).filter((e) => e.name === "Kept");
    expect(row!.data.segment).toMatchObject({ futureField: { a: 1 }, channel: "server" });

    expect((await api("POST", "/api/v1/track", { body: { userId: "x", event: "e" } })).status).toBe(401);
    expect(
      (await api("POST", "/api/v1/track", { headers: basic("rk_nope"), body: { userId: "x", event: "e" } })).status,
    ).toBe(401);
    expect(
      (
        await api("POST", "/api/v1/batch", {
          headers: basic(p.keys.support),
          body: { batch: [{ type: "track", userId: "x", event: "e" }] },
        })
      ).status,
    ).toBe(403);
  });

  it("alias of two existing users is a 409 and writes nothing", async () => {
    const key = p.keys.client;
    await api("POST", "/api/v1/identify", { key, body: { userId: "left" } });
    await api("POST", "/api/v1/identify", { key, body: { userId: "right" } });
    const res = await api("POST", "/api/v1/alias", { key, body: { userId: "left", previousId: "right" } });
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    // The problem names both users, each with the id of the call that points at it, so the caller can
    // decide which to keep (Relay never merges two users on its own; see the mapping table in sdk/README.md).
    const [left] =
      await sql`select user_id from user_identifiers where project_id = ${p.projectId} and source = 'default' and external_id = 'left'`;
    const [right] =
      await sql`select user_id from user_identifiers where project_id = ${p.projectId} and source = 'default' and external_id = 'right'`;
    expect(res.body.errors).toEqual([{ path: "previousId", message: "resolves to 2 different users" }]);
    expect(new Map(res.body.records.map((r: { id: string; identifier: unknown }) => [r.id, r.identifier]))).toEqual(
      new Map([
        [left!.user_id, [{ source: "default", external_id: "left" }]],
        [right!.user_id, [{ source: "default", external_id: "right" }]],
      ]),
    );
    // Nothing written: each user keeps exactly its own identifier (by id, not table totals, which other files'
    // workers on the shared database may be changing meanwhile).
    const owned = await sql`select user_id, source, external_id from user_identifiers
      where project_id = ${p.projectId} and user_id in (${left!.user_id}, ${right!.user_id}) order by external_id`;
    expect(owned.map((r) => [r.user_id, r.source, r.external_id])).toEqual([
      [left!.user_id, "default", "left"],
      [right!.user_id, "default", "right"],
    ]);
  });
});
