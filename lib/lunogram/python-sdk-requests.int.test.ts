import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, snapshotCounts, sql, type TestProject } from "../../scripts/test/helpers";

/**
 * The client routes without the project segment (`/api/client/users`, ...), driven with the exact
 * requests the Lunogram Python SDK sends. Facts read from lunogram/py-sdk (src/lunogram/app/http.py,
 * objects.py): the same paths as the JS SDK (js-sdk-requests.int.test.ts); `Authorization: <key>` with no
 * scheme; `data=json.dumps(body)`.
 */

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
