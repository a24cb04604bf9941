import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";

/**
 * The client routes without the project segment (`/api/client/users`, ...), driven with the exact
 * requests the Lunogram JS SDK sends. Facts read from lunogram/js-sdk (src/core/http.ts, src/utils/string.ts,
 * test/e2e.test.ts):
 * - `${urlEndpoint}/client/${path}` with `urlEndpoint` = `http://host/api`; `Authorization: Bearer <key>`;
 *   `Content-Type: application/json` on every call; every body key camelCase→snake_case (`externalId` →
 *   `external_id`, `scheduledAt` → `scheduled_at`, recursively, data keys included); DELETE carries a JSON
 *   body; 204 without content-type resolves to undefined; it reads `id`, `email`, `name`, `identifier`.
 * The Python SDK's requests are in python-sdk-requests.int.test.ts, the parity with the project path in
 * key-project-routes-parity.int.test.ts.
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

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("lunogram");
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
