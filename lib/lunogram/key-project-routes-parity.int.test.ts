import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, snapshotCounts, sql, type TestProject } from "../../scripts/test/helpers";

/**
 * The client routes without the project segment (`/api/client/users`, ...) are the project path's routes
 * with the project taken from the key: the same answers, limits and errors, and one OpenAPI schema for both.
 * What the SDKs send is in js-sdk-requests.int.test.ts and python-sdk-requests.int.test.ts.
 */

let p: TestProject;
let other: TestProject;
beforeAll(async () => {
  [p, other] = await Promise.all([createTestProject("lunogram"), createTestProject("lunogram-other")]);
}, 600_000);

describe("same wrapper, limits and errors as the project path", () => {
  const cases: Array<[string, string, unknown]> = [
    ["POST", "/users", { identifier: [{ external_id: "" }], locale: "not a locale" }],
    ["POST", "/users/batch", []],
    ["DELETE", "/users", { identifier: [] }],
    ["POST", "/users/events", [{ name: "user.created", identifier: [{ external_id: "a" }], data: {} }]],
    ["POST", "/organizations", { identifier: [{ external_id: "o" }], nope: 1 }],
    [
      "POST",
      "/organizations/users",
      {
        organization: { identifier: [{ external_id: "missing-org" }] },
        user: { identifier: [{ external_id: "missing-user" }] },
      },
    ],
    ["POST", "/users/scheduled/pause", { name: "x", identifier: [{ external_id: "a" }], mode: "later" }],
    ["POST", "/users/subscriptions", { identifier: [{ external_id: "a" }] }],
    ["POST", "/users/scheduled/resume", { name: "x", identifier: [{ external_id: "a" }], mode: "later" }],
    ["POST", "/organizations/batch", []],
    ["POST", "/organizations/users/batch", [{ organization: { identifier: [] }, user: {} }]],
    ["POST", "/organizations/scheduled/pause", { name: "x", identifier: [{ external_id: "o" }], mode: "later" }],
    ["POST", "/organizations/scheduled/resume", { name: "", identifier: [{ external_id: "o" }], mode: "immediately" }],
  ];

  it("answers each bad body exactly as the project path does, and writes nothing", async () => {
    const before = await snapshotCounts(p.projectId);
    for (const [method, path, body] of cases) {
      const withSegment = await api(method, p.client(path), { key: p.keys.client, body });
      const fromKey = await api(method, `/api/client${path}`, { key: p.keys.client, body });
      expect(withSegment.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(fromKey.status, `${method} ${path}`).toBe(withSegment.status);
      expect(fromKey.headers.get("content-type")).toContain("application/problem+json");
      expect(fromKey.body).toEqual(withSegment.body);
    }
    expect(await snapshotCounts(p.projectId)).toEqual(before);
  });

  it("401 without a key, 401 for an unknown key, 403 for a role below client, 415 for non-JSON, RateLimit headers", async () => {
    expect((await api("POST", "/api/client/users", { body: { identifier: [{ external_id: "a" }] } })).status).toBe(401);
    expect(
      (await api("POST", "/api/client/users", { key: "rk_unknown", body: { identifier: [{ external_id: "a" }] } }))
        .status,
    ).toBe(401);
    const low = await api("POST", "/api/client/users", {
      key: p.keys.support,
      body: { identifier: [{ external_id: "a" }] },
    });
    expect(low.status).toBe(403);
    const text = await api("POST", "/api/client/users", {
      key: p.keys.client,
      raw: "{}",
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect(text.headers.get("ratelimit-limit")).toBeTruthy();
  });

  it("takes a good body on the five routes nothing but the fuzz called, writing into the key's project", async () => {
    const post = (path: string, body: unknown) => api("POST", `/api/client${path}`, { key: p.keys.client, body });
    const org = [{ external_id: "kp-org" }];
    const user = [{ external_id: "kp-user" }];
    const orgs = await post("/organizations/batch", [{ identifier: org, name: "Key path" }]);
    expect(orgs.status).toBe(200);
    expect(orgs.body).toMatchObject({ created: 1, data: [{ name: "Key path" }] });
    expect((await post("/users", { identifier: user })).status).toBe(201);
    const members = await post("/organizations/users/batch", [
      { organization: { identifier: org }, user: { identifier: user }, data: { role: "owner" } },
    ]);
    expect(members.status).toBe(200);
    expect(members.body).toMatchObject({ created: 1, data: [{ organization_id: orgs.body.data[0].id }] });
    const [member] = await sql`select m.project_id, m.data from organization_members m
      join organization_identifiers o on o.project_id = m.project_id and o.organization_id = m.organization_id
      where o.external_id = 'kp-org'`;
    expect(member).toEqual({ project_id: p.projectId, data: { role: "owner" } });

    expect(
      (await post("/organizations/scheduled", { name: "kp_monthly", identifier: org, interval: "1 month" })).status,
    ).toBeLessThan(300);
    const orgPaused = await post("/organizations/scheduled/pause", {
      name: "kp_monthly",
      identifier: org,
      mode: "immediately",
    });
    expect(orgPaused.status).toBe(200);
    expect(orgPaused.body).toMatchObject({ state: "paused" });
    const orgResumed = await post("/organizations/scheduled/resume", {
      name: "kp_monthly",
      identifier: org,
      mode: "immediately",
    });
    expect(orgResumed.status).toBe(200);
    expect(orgResumed.body).toMatchObject({ state: "active" });

    expect(
      (await post("/users/scheduled", { name: "kp_weekly", identifier: user, interval: "7 days" })).status,
    ).toBeLessThan(300);
    expect(
      (await post("/users/scheduled/pause", { name: "kp_weekly", identifier: user, mode: "immediately" })).status,
    ).toBe(200);
    const resumed = await post("/users/scheduled/resume", { name: "kp_weekly", identifier: user, mode: "immediately" });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ state: "active" });
    const states = await sql`select a.project_id, a.state from schedule_assignments a
      join schedules s on s.project_id = a.project_id and s.id = a.schedule_id
      where s.name in ('kp_monthly', 'kp_weekly')`;
    expect(states).toEqual([
      { project_id: p.projectId, state: "active" },
      { project_id: p.projectId, state: "active" },
    ]);
  });

  it("uses the key's project: another project's key writes into its own project only", async () => {
    const res = await api("POST", "/api/client/users", {
      key: other.keys.client,
      body: { identifier: [{ external_id: "whose" }] },
    });
    expect(res.status).toBe(201);
    const rows =
      await sql`select project_id from user_identifiers where external_id = 'whose' and project_id in (${p.projectId}, ${other.projectId})`;
    expect(rows.map((r) => r.project_id)).toEqual([other.projectId]);
  });

  it("HTTP Basic with the key as user name authenticates too (the write-key convention)", async () => {
    const basic = Buffer.from(`${p.keys.client}:`).toString("base64");
    const res = await api("POST", "/api/client/users", {
      headers: { authorization: `Basic ${basic}` },
      body: { identifier: [{ external_id: "basic-1" }] },
    });
    expect(res.status).toBe(201);
  });
});

describe("OpenAPI: one schema, two paths", () => {
  it("lists every client path also without the project segment, with the same request body", async () => {
    const doc = (await api("GET", "/api/openapi.json")).body;
    const clientPaths = Object.keys(doc.paths).filter((k) => k.startsWith("/api/client/projects/{projectID}/"));
    expect(clientPaths.length).toBeGreaterThanOrEqual(14);
    for (const full of clientPaths) {
      const short = full.replace("/projects/{projectID}", "");
      expect(doc.paths[short], short).toBeDefined();
      for (const method of Object.keys(doc.paths[full])) {
        expect(doc.paths[short][method].requestBody, `${method} ${short}`).toEqual(doc.paths[full][method].requestBody);
        expect((doc.paths[short][method].parameters ?? []).some((x: any) => x.name === "projectID")).toBe(false);
      }
    }
  });
});
