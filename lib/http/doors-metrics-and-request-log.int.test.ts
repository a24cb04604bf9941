import { describe, expect, it } from "vitest";
import { sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { call, doorsServerForFile, METRICS_TOKEN, p } from "../../test/fixtures/doors";

// Doors 3, 4 and 5 of issue 33 and the readiness check, against a server of this file's own (test/fixtures/doors.ts).
doorsServerForFile("doors-metrics");

describe("3. metrics labels", () => {
  it("label requests by route template: made-up paths, 401s and 429s add no label", async () => {
    for (let i = 0; i < 60; i++) {
      await call("GET", `/l/made-up-${i}`);
      await call("GET", `/api/client/made-up-${i}/x`, { key: "rk_not_a_key" });
      await call("GET", `/nowhere-${i}/deeper`, { from: "10.99.0.1" }); // one address: 429s after the first few
    }
    const scrape = await call("GET", "/api/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scrape.status).toBe(200);
    const routes = new Set(
      [...String(scrape.body).matchAll(/^relay_http_requests_total\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]!),
    );
    expect(routes.has("/l/:token")).toBe(true);
    expect([...routes].filter((r) => r.includes("made-up") || r.includes("nowhere"))).toEqual([]);
    expect(routes.size).toBeLessThan(30);
  });
});

describe("health readiness", () => {
  it("shows only verdicts publicly; values and error text to a METRICS_TOKEN bearer", async () => {
    const open = await call("GET", "/api/health/ready");
    expect([200, 503]).toContain(open.status);
    for (const check of Object.values(open.body.checks as Record<string, object>))
      expect(Object.keys(check)).toEqual(["ok"]);
    const full = await call("GET", "/api/health/ready", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(full.body.checks.database.detail).toBe("reachable");
    expect(full.body.checks.intake_backlog.limit).toEqual(expect.any(Number));
  });
});

/** The request log's rows for a request id (the flush runs every second). */
async function loggedRow(requestId: string) {
  return waitFor(
    async () => {
      const [row] =
        await sql`select status, path, body, errors, octet_length(coalesce(body, '')) + octet_length(coalesce(errors::text, '')) + octet_length(path) as size
        from api_requests where project_id = ${p.projectId} and request_id = ${requestId}`;
      return row;
    },
    20_000,
    "the request log row",
  );
}

describe("4, 5. the request log", () => {
  it("bounds an entry whatever the body: 90 unknown fields with 10 KB names log a few KiB", async () => {
    const body: Record<string, string> = { identifier: "[]" };
    for (let i = 0; i < 90; i++) body[`${String(i).padStart(2, "0")}${"f".repeat(10_000)}`] = "v";
    const res = await call("POST", p.client("/users"), {
      key: p.keys.client,
      json: body,
      headers: { "x-request-id": `doors-big-${process.pid}` },
    });
    expect(res.status).toBe(400);
    const row = await loggedRow(`doors-big-${process.pid}`);
    expect(row.size).toBeLessThan(8 * 1024);
    expect(row.errors.length).toBeLessThanOrEqual(21);
    for (const e of row.errors) {
      expect(e.path.length).toBeLessThanOrEqual(120);
      expect(e.message.length).toBeLessThanOrEqual(240);
    }
  });

  it("redacts every secret field in a refused body and in its errors", async () => {
    const res = await call("PATCH", p.admin("/subscription-groups/settings"), {
      key: p.keys.admin,
      json: {
        default_policy: "bogus",
        twilio_auth_token: "tw-secret-value-123",
        twilio_account_sid: "AC-sid-value-456",
        my_api_key_here: "key-value-789",
        nested: { db_password: "pw-value-000" },
      },
      headers: { "x-request-id": `doors-secret-${process.pid}` },
    });
    expect(res.status).toBe(400);
    const row = await loggedRow(`doors-secret-${process.pid}`);
    const stored = JSON.stringify(row);
    for (const secret of ["tw-secret-value-123", "AC-sid-value-456", "key-value-789", "pw-value-000"])
      expect(stored).not.toContain(secret);
    expect(row.body).toContain("[redacted]");
    expect(row.body).toContain("bogus"); // what is not secret stays, to debug with
  });

  it("counts 429s in the rollups instead of logging each one", async () => {
    const { getDb } = await import("../../db/client");
    const { createApiKey } = await import("../access/api-keys");
    const slow = await createApiKey(
      { db: getDb() },
      { projectId: p.projectId, name: "slow", role: "client", rateLimitPerSecond: 1, rateLimitBurst: 1 },
    );
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await call("POST", p.client("/users/events"), { key: slow.secret, json: [{ name: "x", identifier: [] }] }))
          .status,
      );
    const limited = statuses.filter((s) => s === 429).length;
    expect(limited).toBeGreaterThan(5);
    await waitFor(
      async () => {
        const [r] =
          await sql`select coalesce(sum(count), 0)::int as n from project_rollups where project_id = ${p.projectId} and metric = 'requests.limited'`;
        return r!.n >= limited;
      },
      20_000,
      "the 429s counted",
    );
    const logged = async () =>
      (
        await sql`select count(*)::int as n, count(*) filter (where status = 429)::int as limited
          from api_requests where project_id = ${p.projectId} and key_id = ${slow.key.id}`
      )[0]!;
    await waitFor(async () => (await logged()).n === 12 - limited, 20_000, "the other requests logged");
    expect((await logged()).limited).toBe(0);
  });
});
