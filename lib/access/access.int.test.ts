import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, snapshotCounts, sql, type TestProject } from "../../scripts/test/helpers";
import type { Role } from "./roles";

let a: TestProject;
let b: TestProject;
beforeAll(async () => {
  a = await createTestProject("access-a");
  b = await createTestProject("access-b");
  await api("POST", b.client("/users"), {
    key: b.keys.client,
    body: { identifier: [{ external_id: "b-secret-user" }], email: "secret@b.example" },
  });
});

const userBody = (id: string) => ({ identifier: [{ external_id: id }] });

describe("authentication", () => {
  it("answers 401 problem+json for a missing, malformed, unknown or revoked key", async () => {
    const missing = await api("POST", a.client("/users"), { body: userBody("x") });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
    expect(
      (await api("POST", a.client("/users"), { body: userBody("x"), headers: { authorization: "Basic abc" } })).status,
    ).toBe(401);
    expect((await api("POST", a.client("/users"), { key: "rk_000000000000_nope", body: userBody("x") })).status).toBe(
      401,
    );

    const { getDb } = await import("../../db/client");
    const { createApiKey } = await import("./api-keys");
    const { key, secret } = await createApiKey(
      { db: getDb() },
      { projectId: a.projectId, name: "to revoke", role: "client" },
    );
    expect((await api("POST", a.client("/users"), { key: secret, body: userBody("revoke-ok") })).status).toBe(201);
    // Revoked from another process (this one): the server hears of it by NOTIFY (lib/access/key-cache.ts),
    // within moments and well inside the cache's 10 s.
    await sql`update api_keys set revoked_at = now() where id = ${key.id}`;
    let revoked = await api("POST", a.client("/users"), { key: secret, body: userBody("revoke-no") });
    for (let i = 0; revoked.status !== 401 && i < 10; i++) {
      await new Promise((r) => setTimeout(r, 100));
      revoked = await api("POST", a.client("/users"), { key: secret, body: userBody("revoke-no") });
    }
    expect(revoked.status).toBe(401);
    expect(revoked.body.detail).toMatch(/unknown or has been revoked/);
  });

  it("stores only a SHA-256 hash of the secret, with its visible prefix", async () => {
    const [row] =
      await sql`select prefix, secret_hash from api_keys where project_id = ${a.projectId} and name = 'client'`;
    expect(a.keys.client.startsWith(row!.prefix)).toBe(true);
    expect(row!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.secret_hash).not.toContain(a.keys.client);
  });

  it("refuses a key of project A on project B's paths with 403, leaking nothing and writing nothing", async () => {
    const before = await snapshotCounts(b.projectId);
    const write = await api("POST", b.client("/users"), { key: a.keys.admin, body: userBody("intruder") });
    const read = await api("GET", b.admin("/users"), { key: a.keys.admin });
    const ghost = await api("GET", `/api/admin/projects/${randomUUID()}/users`, { key: a.keys.admin });
    for (const res of [write, read, ghost]) {
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain("b-secret-user");
      expect(JSON.stringify(res.body)).not.toContain("secret@b.example");
    }
    // A project that does not exist gets the same answer as one that does: existence is not revealed.
    expect(ghost.body.detail).toBe(read.body.detail);
    expect(await snapshotCounts(b.projectId)).toEqual(before);
  });
});

describe("roles: support < client < editor < admin", () => {
  const cases: {
    name: string;
    call: (p: TestProject, key: string) => Promise<{ status: number; body: any }>;
    minimum: Role;
    ok: number;
  }[] = [
    {
      name: "POST /users",
      call: (p, key) => api("POST", p.client("/users"), { key, body: userBody(`r-${randomUUID()}`) }),
      minimum: "client",
      ok: 201,
    },
    {
      name: "POST /users/batch",
      call: (p, key) => api("POST", p.client("/users/batch"), { key, body: [userBody(`r-${randomUUID()}`)] }),
      minimum: "client",
      ok: 200,
    },
    {
      name: "POST /organizations",
      call: (p, key) => api("POST", p.client("/organizations"), { key, body: userBody(`o-${randomUUID()}`) }),
      minimum: "client",
      ok: 201,
    },
    {
      name: "DELETE /users (unknown)",
      call: (p, key) => api("DELETE", p.client("/users"), { key, body: userBody(`gone-${randomUUID()}`) }),
      minimum: "client",
      ok: 404,
    },
    { name: "GET admin /users", call: (p, key) => api("GET", p.admin("/users"), { key }), minimum: "support", ok: 200 },
    {
      name: "GET admin /organizations",
      call: (p, key) => api("GET", p.admin("/organizations"), { key }),
      minimum: "support",
      ok: 200,
    },
    {
      name: "GET admin /events",
      call: (p, key) => api("GET", p.admin("/events"), { key }),
      minimum: "support",
      ok: 200,
    },
    {
      name: "DELETE admin /users/{id} (unknown)",
      call: (p, key) => api("DELETE", p.admin(`/users/${randomUUID()}`), { key }),
      minimum: "admin",
      ok: 404,
    },
  ];
  const order: Role[] = ["support", "client", "editor", "admin"];

  for (const c of cases) {
    it(`${c.name}: allowed from ${c.minimum} up, 403 below`, async () => {
      for (const role of order) {
        const res = await c.call(a, a.keys[role]);
        const allowed = order.indexOf(role) >= order.indexOf(c.minimum);
        expect({ role, status: res.status }).toEqual({ role, status: allowed ? c.ok : 403 });
        if (!allowed) expect(res.body.detail).toContain(`needs the ${c.minimum} role`);
      }
    });
  }

  it("a support key cannot write: nothing is stored", async () => {
    const before = await snapshotCounts(a.projectId);
    const res = await api("POST", a.client("/users"), { key: a.keys.support, body: userBody("support-write") });
    expect(res.status).toBe(403);
    expect(await snapshotCounts(a.projectId)).toEqual(before);
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After once a key's bucket is empty, with RateLimit headers on every response", async () => {
    const { getDb } = await import("../../db/client");
    const { createApiKey } = await import("./api-keys");
    const { secret } = await createApiKey(
      { db: getDb() },
      { projectId: a.projectId, name: "slow", role: "support", rateLimitPerSecond: 1, rateLimitBurst: 3 },
    );
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof api>> | undefined;
    for (let i = 0; i < 5; i++) {
      last = await api("GET", a.admin("/users?limit=1"), { key: secret });
      statuses.push(last.status);
      expect(last.headers.get("ratelimit-limit")).toBe("3");
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.at(-1)).toBe(429);
    expect(last!.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
  });
});
