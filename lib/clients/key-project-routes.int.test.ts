import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, snapshotCounts, sql, type TestProject } from "../../scripts/test/helpers";

/**
 * The client routes without the project segment (`/api/client/users`, ...), driven with the exact
 * requests the Lunogram SDKs send. Facts read from lunogram/js-sdk (src/core/http.ts, src/utils/string.ts,
 * test/e2e.test.ts) and lunogram/py-sdk (src/lunogram/app/http.py, objects.py):
 * - JS: `${urlEndpoint}/client/${path}` with `urlEndpoint` = `http://host/api`; `Authorization: Bearer <key>`;
 *   `Content-Type: application/json` on every call; every body key camelCase→snake_case (`externalId` →
 *   `external_id`, `scheduledAt` → `scheduled_at`, recursively, data keys included); DELETE carries a JSON
 *   body; 204 without content-type resolves to undefined; it reads `id`, `email`, `name`, `identifier`.
 * - Python: the same paths; `Authorization: <key>` with no scheme; `data=json.dumps(body)`.
 */

// What the JS SDK's mapKeys does to a body, re-stated here (no SDK code is vendored).
const snake = (k: string) => k.replace(/([A-Z])/g, "_$1").toLowerCase();
function mapKeys(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(mapKeys);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [snake(k), mapKeys(x)]));
}

/** One call as the JS SDK makes it. */
async function jsSdk(key: string, method: "POST" | "DELETE", path: string, data: unknown) {
  const res = await fetch(`${baseUrl}/api/client/${path}`, {
    method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
    body: JSON.stringify(mapKeys(data)),
  });
  const isJson = res.headers.get("content-type")?.includes("json");
  return { status: res.status, body: isJson ? await res.json() : undefined };
}

/** One call as the Python SDK makes it: the key with no scheme. */
async function pySdk(key: string, method: "POST" | "DELETE", path: string, data: unknown) {
  const res = await fetch(`${baseUrl}/api/client/${path}`, {
    method,
    headers: { "Content-Type": "application/json", Authorization: key },
    body: JSON.stringify(data),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

let p: TestProject;
let other: TestProject;
beforeAll(async () => {
  [p, other] = await Promise.all([createTestProject("lunogram"), createTestProject("lunogram-other")]);
}, 600_000);

describe("the JS SDK's e2e sequence against /api/client/... (project from the key)", () => {
  it("runs users, events, schedules, organizations, memberships and deletes with the SDK's shapes", async () => {
    const k = p.keys.client;
    const userId = `test-user-${Date.now()}`;
    const orgId = `test-org-${Date.now()}`;

    const user = await jsSdk(k, "POST", "users", {
      identifier: [{ externalId: userId }],
      email: `${userId}@test.example.com`,
      data: { first_name: "Test", last_name: "User" },
    });
    expect(user.status).toBe(201);
    expect(user.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user.body.email).toBe(`${userId}@test.example.com`);

    const two = await jsSdk(k, "POST", "users", {
      identifier: [{ externalId: userId }, { source: "test-suite", externalId: `suite-${userId}` }],
      data: { has_completed_onboarding: true },
    });
    expect(two.status).toBe(200);
    expect(two.body.id).toBe(user.body.id);
    expect(two.body.identifier.length).toBeGreaterThanOrEqual(2);

    const events = await jsSdk(k, "POST", "users/events", [
      { name: "test_event", identifier: [{ externalId: userId }], data: { source: "integration_test" } },
    ]);
    expect(events.status).toBe(202);

    const scheduledAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const sched = await jsSdk(k, "POST", "users/scheduled", {
      name: "test_reminder",
      identifier: [{ externalId: userId }],
      scheduledAt,
      data: { reason: "integration_test" },
    });
    expect(sched.status).toBe(201);
    expect(sched.body.name).toBe("test_reminder");
    expect(
      (await jsSdk(k, "DELETE", "users/scheduled", { name: "test_reminder", identifier: [{ externalId: userId }] }))
        .status,
    ).toBe(204);

    const org = await jsSdk(k, "POST", "organizations", {
      identifier: [{ externalId: orgId }],
      name: "Test Organization",
      data: { industry: "testing" },
    });
    expect(org.status).toBe(201);
    expect(org.body.name).toBe("Test Organization");
    const both = {
      organization: { identifier: [{ externalId: orgId }] },
      user: { identifier: [{ externalId: userId }] },
    };
    expect((await jsSdk(k, "POST", "organizations/users", { ...both, data: { role: "admin" } })).status).toBe(201);
    expect(
      (
        await jsSdk(k, "POST", "organizations/events", [
          { identifier: [{ externalId: orgId }], name: "test_org_event", data: { source: "integration_test" } },
        ])
      ).status,
    ).toBe(202);
    const orgSched = await jsSdk(k, "POST", "organizations/scheduled", {
      name: "test_contract_renewal",
      identifier: [{ externalId: orgId }],
      scheduledAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    });
    expect(orgSched.body.name).toBe("test_contract_renewal");
    expect(
      (
        await jsSdk(k, "DELETE", "organizations/scheduled", {
          name: "test_contract_renewal",
          identifier: [{ externalId: orgId }],
        })
      ).status,
    ).toBe(204);
    expect((await jsSdk(k, "DELETE", "organizations/users", both)).status).toBe(204);

    // Everything landed in the key's project, none in another.
    const [{ n }] =
      await sql`select count(*)::int as n from user_identifiers where project_id = ${p.projectId} and external_id = ${userId}`;
    expect(n).toBe(1);

    expect((await jsSdk(k, "DELETE", "organizations", { identifier: [{ externalId: orgId }] })).status).toBe(204);
    expect((await jsSdk(k, "DELETE", "users", { identifier: [{ externalId: userId }] })).status).toBe(204);
    expect((await jsSdk(k, "DELETE", "users", { identifier: [{ externalId: userId }] })).status).toBe(404);
  });

  it("the browser client's identifiers (anonymous uuid + sticky default id) merge onto one user", async () => {
    const anon = crypto.randomUUID();
    const first = await jsSdk(p.keys.client, "POST", "users/events", [
      { name: "page", identifier: [{ source: "anonymous", externalId: anon }], data: {} },
    ]);
    expect(first.status).toBe(202);
    const identified = await jsSdk(p.keys.client, "POST", "users", {
      identifier: [
        { source: "anonymous", externalId: anon },
        { source: "default", externalId: `u-${anon}` },
      ],
      email: null,
      data: { plan: "free" },
    });
    expect([200, 201]).toContain(identified.status);
    expect(identified.body.identifier.map((i: any) => i.source).sort()).toEqual(["anonymous", "default"]);
  });
});

describe("the Python SDK's requests", () => {
  it("accepts the key with no scheme and the snake_case bodies it sends (upsert, events, scheduled, delete)", async () => {
    const k = p.keys.client;
    const up = await pySdk(k, "POST", "users", {
      identifier: [{ source: "default", external_id: "py-1" }],
      email: "py@example.com",
      phone: "+31612345678",
      timezone: "Europe/Amsterdam",
      locale: "nl-NL",
      data: { first_name: "Py", last_name: "Thon" },
    });
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({
      email: "py@example.com",
      locale: "nl-NL",
      identifier: [{ source: "default", external_id: "py-1" }],
    });
    expect(
      (
        await pySdk(k, "POST", "users/events", [
          { identifier: [{ external_id: "py-1" }], name: "py_event", data: { a: 1 } },
        ])
      ).status,
    ).toBe(202);
    expect(
      (
        await pySdk(k, "POST", "users/scheduled", {
          identifier: [{ external_id: "py-1" }],
          name: "py_weekly",
          interval: "7 days",
        })
      ).status,
    ).toBe(201);
    expect(
      (await pySdk(k, "DELETE", "users/scheduled", { identifier: [{ external_id: "py-1" }], name: "py_weekly" }))
        .status,
    ).toBe(204);
    expect(
      (await pySdk(k, "POST", "organizations", { identifier: [{ external_id: "py-org" }], name: "Py Org" })).status,
    ).toBe(201);
    expect((await pySdk(k, "DELETE", "organizations", { identifier: [{ external_id: "py-org" }] })).status).toBe(204);
    expect((await pySdk(k, "DELETE", "users", { identifier: [{ external_id: "py-1" }] })).status).toBe(204);
  });

  /*
   * The shapes exactly as py-sdk builds them (src/lunogram/client.py `random_user()`, with its fixed
   * timestamps; src/lunogram/app/types/identifier.py `Identifier`: id, source, external_id, metadata,
   * created_at, updated_at). Strict on the project path; tolerated on the key-scoped mirror it calls.
   */
  const randomUser = (n: number) => ({
    identifier: [
      {
        source: "default",
        external_id: `user_${n}`,
        metadata: null,
        created_at: "2025-11-19T14:18:42.960Z",
        updated_at: "2025-11-23T17:20:00.021Z",
      },
    ],
    external_id: `user_${n}`,
    anonymous_id: `anon_${n}`,
    email: `j.smith${n}@gmail.com`,
    phone: "+31612345678",
    timezone: "Europe/Amsterdam",
    locale: "nl-NL",
    data: { first_name: "John", last_name: "Smith", has_completed_onboarding: true },
  });
  const typedIdentifier = (external_id: string) => ({
    id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
    source: "default",
    external_id,
    metadata: null,
    created_at: "2025-11-19T14:18:42.960Z",
    updated_at: "2025-11-23T17:20:00.021Z",
  });

  it("random_user() upserts on the key-scoped path: read-only fields ignored, external_id / anonymous_id read as identifiers", async () => {
    const k = p.keys.client;
    const strict = await api("POST", p.client("/users"), { key: k, body: randomUser(10001) });
    expect(strict.status).toBe(400);
    expect(strict.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(
      ["anonymous_id", "external_id", "identifier[0].created_at", "identifier[0].updated_at"].sort(),
    );

    const up = await pySdk(k, "POST", "users", randomUser(10001));
    expect(up.status).toBe(201);
    expect(up.body.identifier.map((i: any) => `${i.source}:${i.external_id}`).sort()).toEqual([
      "anonymous:anon_10001",
      "default:user_10001",
    ]);
    expect(up.body).toMatchObject({
      email: "j.smith10001@gmail.com",
      phone: "+31612345678",
      locale: "nl-NL",
      data: { has_completed_onboarding: true },
    });
    expect(up.body.created_at).not.toBe("2025-11-19T14:18:42.960Z");
    // The same again is an update of the same user; a batch of them works too.
    expect((await pySdk(k, "POST", "users", randomUser(10001))).body.id).toBe(up.body.id);
    const batch = await pySdk(k, "POST", "users/batch", [randomUser(10002), randomUser(10003)]);
    expect(batch.status).toBe(200);
    expect(batch.body.created).toBe(2);
  });

  it("a user read back from the API, and identifiers typed as py-sdk's Identifier, are accepted; their server fields are ignored", async () => {
    const k = p.keys.client;
    const first = await pySdk(k, "POST", "users", { identifier: [typedIdentifier("py-typed")], data: { a: 1 } });
    expect(first.status).toBe(201);
    const readBack = {
      ...first.body,
      id: crypto.randomUUID(),
      project_id: other.projectId,
      version: 7,
      has_push_device: false,
      data: { a: 2 },
    };
    const again = await pySdk(k, "POST", "users", readBack);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.data).toEqual({ a: 2 });
    const [{ n }] = await sql`select count(*)::int as n from users where project_id = ${other.projectId}`;
    expect(n).toBe(0);
    expect((await pySdk(k, "DELETE", "users", { identifier: [typedIdentifier("py-typed")] })).status).toBe(204);
  });

  it("its other calls (events, schedules, organizations) take identifiers typed as its Identifier, and an organization read back", async () => {
    const k = p.keys.client;
    const ids = randomUser(10004).identifier;
    expect((await pySdk(k, "POST", "users", randomUser(10004))).status).toBe(201);
    expect(
      (await pySdk(k, "POST", "users/events", [{ identifier: ids, name: "py_typed_event", data: { a: 1 } }])).status,
    ).toBe(202);
    expect(
      (await pySdk(k, "POST", "users/scheduled", { identifier: ids, name: "py_typed_weekly", interval: "7 days" }))
        .status,
    ).toBe(201);
    expect((await pySdk(k, "DELETE", "users/scheduled", { identifier: ids, name: "py_typed_weekly" })).status).toBe(
      204,
    );
    const org = await pySdk(k, "POST", "organizations", {
      identifier: [typedIdentifier("py-typed-org")],
      name: "Typed",
    });
    expect(org.status).toBe(201);
    const readBack = await pySdk(k, "POST", "organizations", {
      ...org.body,
      id: crypto.randomUUID(),
      project_id: other.projectId,
      version: 3,
      name: "Typed 2",
    });
    expect(readBack.status).toBe(200);
    expect(readBack.body).toMatchObject({ id: org.body.id, name: "Typed 2" });
    expect(
      (
        await pySdk(k, "POST", "organizations/events", [
          { identifier: [typedIdentifier("py-typed-org")], name: "py_org_event" },
        ])
      ).status,
    ).toBe(202);
    expect(
      (
        await pySdk(k, "POST", "organizations/scheduled", {
          identifier: [typedIdentifier("py-typed-org")],
          name: "py_org_weekly",
          interval: "7 days",
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await pySdk(k, "DELETE", "organizations/scheduled", {
          identifier: [typedIdentifier("py-typed-org")],
          name: "py_org_weekly",
        })
      ).status,
    ).toBe(204);
    expect((await pySdk(k, "DELETE", "organizations", { identifier: [typedIdentifier("py-typed-org")] })).status).toBe(
      204,
    );
    // The project path stays strict.
    expect(
      (await api("POST", p.client("/users/events"), { key: k, body: [{ identifier: ids, name: "e", data: {} }] }))
        .status,
    ).toBe(400);
  });

  it("stays strict for everything else, and for bad values in the tolerated fields", async () => {
    const k = p.keys.client;
    const before = await snapshotCounts(p.projectId);
    const cases: Array<[unknown, string]> = [
      [{ ...randomUser(1), nickname: "x" }, "nickname"],
      [{ identifier: [{ external_id: "e", tags: [] }] }, "identifier[0].tags"],
      [{ identifier: [{ external_id: "e" }], anonymous_id: 42 }, "identifier[1].external_id"],
      [{ identifier: [{ external_id: "e" }], external_id: "" }, "identifier[1].external_id"],
    ];
    for (const [body, path] of cases) {
      const res = await pySdk(k, "POST", "users", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect(await snapshotCounts(p.projectId)).toEqual(before);
  });

  it("a bare string that is not a key is 401 with the usual advice", async () => {
    const res = await pySdk("not-a-key", "POST", "users", { identifier: [{ external_id: "x" }] });
    expect(res.status).toBe(401);
    expect(res.body.detail).toContain("Bearer");
  });
});

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
