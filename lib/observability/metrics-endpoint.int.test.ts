import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createTestProject, type TestProject } from "../../scripts/test/helpers";
import { startNextServer } from "../../scripts/test/next-server";

/*
 * GET /api/metrics: off (404) without METRICS_TOKEN, the suite's shared server; on a server of this file's
 * own with a token, Prometheus text for its bearer and 401 for anyone else.
 */
const TOKEN = `metrics-${crypto.randomUUID()}`;
let server: Awaited<ReturnType<typeof startNextServer>>;
let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("metrics");
  server = await startNextServer({ DATABASE_URL: inject("databaseUrl"), METRICS_TOKEN: TOKEN });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const scrape = (authorization?: string) =>
  fetch(`${server.url}/api/metrics`, { headers: authorization ? { authorization } : {} });

describe("GET /api/metrics", () => {
  it("is off without METRICS_TOKEN: 404, no metrics", async () => {
    const res = await api("GET", "/api/metrics");
    expect(res.status).toBe(404);
    expect(String(res.body)).not.toContain("relay_");
  });

  it("refuses a missing, wrong or differently sized token with 401 and a Bearer challenge", async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN.slice(0, -1)}x`, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`]) {
      const res = await scrape(authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect(await res.text()).not.toContain("relay_");
    }
  });

  it("answers Prometheus text to the token's bearer, counting the requests this process served", async () => {
    const upsert = await fetch(`${server.url}${p.client("/users")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${p.keys.client}`, "content-type": "application/json" },
      body: JSON.stringify({ identifier: [{ external_id: "metrics-1" }] }),
    });
    expect(upsert.status).toBe(201);
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    expect(text).toMatch(/^# TYPE relay_http_requests_total counter$/m);
    expect(text).toMatch(/^relay_http_requests_total\{[^}]*method="POST"[^}]*status="201"[^}]*\} [1-9]/m);
    // The system gauges are read from the database at scrape time.
    expect(text).toMatch(/^relay_intake_backlog \d+/m);
    expect(text).toMatch(/^relay_db_pool_max \d+/m);
  });
});
