import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";

let p: TestProject;
let other: TestProject;
beforeAll(async () => {
  [p, other] = await Promise.all([createTestProject("reqlog"), createTestProject("reqlog-other")]);
});
afterAll(async () => {});

const log = (query = "", key = p.keys.admin) => api("GET", p.admin(`/requests${query}`), { key });
const keyId = async (role: string, project = p) =>
  (await sql`select id from api_keys where project_id = ${project.projectId} and name = ${role}`)[0]!.id as string;

describe("GET /requests (the API request log)", () => {
  it("is admin-only: support and editor keys are refused, another project's admin too", async () => {
    expect((await log("", p.keys.support)).status).toBe(403);
    expect((await log("", p.keys.editor)).status).toBe(403);
    expect((await log("", other.keys.admin)).status).toBe(403);
    expect((await log("")).status).toBe(200);
  });

  it("records a rejected request with its errors[], request id and redacted body, and a successful one without a body", async () => {
    const bad = await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ source: "x" }], data: { password: "hunter2", note: `key ${p.keys.admin}` } },
    });
    expect(bad.status).toBe(400);
    const ok = await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "fine" }], data: { password: "s3cret" } },
    });
    expect(ok.status).toBe(201);
    const clientKey = await keyId("client");
    const rows = await waitFor(
      async () => {
        const r = await log(`?key_id=${clientKey}`);
        return r.body.data.length >= 2 ? r.body.data : null;
      },
      10_000,
      "the log to be flushed",
    );
    const failed = rows.find((r: any) => r.status === 400);
    expect(failed).toMatchObject({
      method: "POST",
      path: `/api/client/projects/${p.projectId}/users`,
      key_id: clientKey,
      key_name: "client",
      request_id: bad.headers.get("x-request-id"),
    });
    expect(failed.errors).toEqual(bad.body.errors);
    expect(failed.duration_ms).toBeGreaterThanOrEqual(0);
    expect(failed.body).toContain('"password":"[redacted]"');
    expect(failed.body).not.toContain("hunter2");
    expect(failed.body).not.toContain(p.keys.admin);
    const good = rows.find((r: any) => r.status === 201);
    expect(good).toMatchObject({ errors: null, body: null });
  });

  it("caps a failed body at 4 KiB and filters by status class and exact status", async () => {
    const big = await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [], data: { blob: "x".repeat(50_000) } },
    });
    expect(big.status).toBe(400);
    await api("GET", p.admin("/users/00000000-0000-4000-8000-000000000000"), { key: p.keys.support });
    const rows = await waitFor(
      async () => {
        const r = await log("?status=4xx");
        return r.body.data.some((x: any) => x.status === 404) &&
          r.body.data.some((x: any) => x.body?.includes("truncated"))
          ? r.body.data
          : null;
      },
      10_000,
      "the log to be flushed",
    );
    expect(rows.every((r: any) => r.status >= 400 && r.status < 500)).toBe(true);
    const truncated = rows.find((r: any) => r.body?.includes("truncated"));
    expect(Buffer.byteLength(truncated.body)).toBeLessThanOrEqual(4 * 1024);
    const only404 = (await log("?status=404")).body.data;
    expect(only404.length).toBeGreaterThan(0);
    expect(only404.every((r: any) => r.status === 404)).toBe(true);
    expect((await log("?status=201")).body.data.every((r: any) => r.status === 201)).toBe(true);
    expect((await log("?status=abc")).status).toBe(400);
  });

  it("keeps logging after requests carrying U+0000, which PostgreSQL's text cannot hold", async () => {
    // A raw NUL in a body that is not JSON, and one in a JSON key that the error names: both once made every
    // later flush fail and retry the same batch forever, so nothing after them was ever logged.
    const raw = await api("POST", p.client("/users"), {
      key: p.keys.client,
      raw: "not json \0 here",
      headers: { "content-type": "application/json" },
    });
    expect(raw.status).toBe(400);
    const keyed = await api("POST", p.client("/users"), {
      key: p.keys.client,
      raw: '{"identifier":[{"external_id":"n"}],"\\u0000x":1}',
      headers: { "content-type": "application/json" },
    });
    expect(keyed.status).toBeLessThan(500);
    const after = await api("GET", p.admin("/users/00000000-0000-4000-8000-00000000abcd"), { key: p.keys.editor });
    expect(after.status).toBe(404);
    const rows = await waitFor(
      async () => {
        const r = await log("?status=4xx&limit=100");
        return r.body.data.some((x: any) => x.request_id === after.headers.get("x-request-id")) ? r.body.data : null;
      },
      10_000,
      "the request after the NUL ones to be logged",
    );
    const nul = rows.find((r: any) => r.request_id === raw.headers.get("x-request-id"));
    expect(nul?.body).toContain("not json");
    expect(nul?.body).not.toContain("\0");
  });

  it("never shows another project's requests", async () => {
    await api("POST", other.client("/users"), { key: other.keys.client, body: { identifier: [] } });
    const otherKey = await keyId("client", other);
    await waitFor(
      async () => (await sql`select 1 from api_requests where key_id = ${otherKey}`).length > 0,
      10_000,
      "flush",
    );
    expect((await log(`?key_id=${otherKey}`)).body.data).toEqual([]);
  });

  it("is pruned by the worker's tick to the last 1,000 requests per key and 7 days", async () => {
    const { pruneRequestLog } = await import("./prune-request-log");
    const { getDb } = await import("../../db/client");
    const k = crypto.randomUUID(); // a key of its own: no live request lands between insert and prune
    await sql`insert into api_requests (project_id, key_id, at, method, path, status, duration_ms, request_id)
      select ${p.projectId}, ${k}, now() - (i || ' seconds')::interval, 'GET', '/x', 200, 1, 'r' || i from generate_series(1, 1010) i`;
    await sql`insert into api_requests (project_id, key_id, at, method, path, status, duration_ms, request_id)
      values (${p.projectId}, ${await keyId("support")}, now() - interval '8 days', 'GET', '/old', 200, 1, 'old')`;
    await pruneRequestLog({ db: getDb() });
    const kept = await sql`select request_id from api_requests where key_id = ${k}`;
    expect(kept).toHaveLength(1000);
    const ids = new Set(kept.map((r) => r.request_id));
    expect(ids.has("r1") && ids.has("r1000")).toBe(true);
    expect(ids.has("r1001")).toBe(false);
    expect(await sql`select 1 from api_requests where request_id = 'old' and project_id = ${p.projectId}`).toHaveLength(
      0,
    );
  });
});
