import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { api, baseUrl, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { startNextServer } from "../../scripts/test/next-server";
import { createTestAdmin } from "../../scripts/test/sessions";
import { Budget, perSecond, perWindow } from "./rate-limit";

const databaseUrl = process.env.DATABASE_URL!;
const who = () => `s-${crypto.randomUUID()}`;

describe("RATE_LIMIT_STORE=postgres", () => {
  const pools = [
    postgres(databaseUrl, { max: 2, onnotice: () => {} }),
    postgres(databaseUrl, { max: 2, onnotice: () => {} }),
  ];
  afterAll(() => Promise.all(pools.map((p) => p.end())));
  // Two limiter instances with their own connection pools stand for two web instances.
  const instances = (name: string, spec: ReturnType<typeof perSecond>) =>
    pools.map((p) => new Budget(name, spec, "postgres", drizzle(p, { schema, casing: "snake_case" })));

  it("shares one budget between instances", async () => {
    const [a, b] = instances(`shared-${who()}`, perWindow(4, 60));
    const key = who();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await (i % 2 ? b! : a!).take(key)).allowed);
    expect(answers).toEqual([true, true, true, true, false, false]);
    const [row] = await sql`select points from rate_limits where key like ${`%${key}`}`;
    expect(row!.points).toBeGreaterThanOrEqual(4);
  });

  it("gives the burst once across instances, then the sustained rate", async () => {
    const [a, b] = instances(`burst-${who()}`, perSecond(1, 3));
    const key = who();
    const answers = await Promise.all([a!.take(key), b!.take(key), a!.take(key), b!.take(key), a!.take(key)]);
    expect(answers.filter((d) => d.allowed)).toHaveLength(3);
    const refused = answers.find((d) => !d.allowed)!;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it("in memory, each instance would count alone (why the shared store exists)", async () => {
    const spec = perWindow(4, 60);
    const [a, b] = [new Budget("mem-a", spec, "memory"), new Budget("mem-b", spec, "memory")];
    const key = who();
    let allowed = 0;
    for (let i = 0; i < 8; i++) if ((await (i % 2 ? b : a).take(key)).allowed) allowed++;
    expect(allowed).toBe(8);
  });
});

const hasHeaders = (h: Headers) => {
  expect(h.get("ratelimit-limit")).toMatch(/^\d+$/);
  expect(h.get("ratelimit-remaining")).toMatch(/^\d+$/);
  expect(h.get("ratelimit-reset")).toMatch(/^\d+$/);
};

describe("RateLimit-* headers on every kind of answer", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await createTestProject("rate-headers");
  });

  it("on API-key answers, 401s, session calls, /api/invites/* and public routes", async () => {
    hasHeaders((await api("GET", p.admin("/members"), { key: p.keys.admin })).headers);
    hasHeaders((await api("GET", p.admin("/members"))).headers);
    hasHeaders((await api("GET", p.admin("/members"), { key: "rk_nope" })).headers);
    hasHeaders((await api("GET", p.admin("/members"), { headers: { authorization: "Basic x" } })).headers);
    const admin = await createTestAdmin();
    hasHeaders((await api("GET", "/api/invites/mine", { headers: { cookie: admin.cookie } })).headers);
    hasHeaders((await api("GET", "/api/invites/mine")).headers);
    hasHeaders(
      (await api("GET", `/api/admin/projects/${crypto.randomUUID()}/members`, { headers: { cookie: admin.cookie } }))
        .headers,
    );
    hasHeaders((await fetch(`${baseUrl}/u/not-a-token`, { redirect: "manual" })).headers);
    // The preference form answers 303 back to its page; the redirect itself carries the headers.
    const prefs = await fetch(`${baseUrl}/api/preferences/not-a-token`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ all: "unsubscribed" }),
    });
    expect(prefs.status).toBe(303);
    hasHeaders(prefs.headers);
    // Unknown API paths (404 problem+json) and a session's project-scoped call.
    const unknown = await api("GET", "/api/no-such-endpoint");
    expect(unknown.status).toBe(404);
    hasHeaders(unknown.headers);
    await sql`insert into project_members (project_id, admin_id, role) values (${p.projectId}, ${admin.id}, 'admin')`;
    const session = await api("GET", p.admin("/invites"), { headers: { cookie: admin.cookie } });
    expect(session.status).toBe(200);
    hasHeaders(session.headers);
    expect(Number(session.headers.get("ratelimit-limit"))).toBe(200);
  });

  it("answers a key past its budget with 429 problem+json and Retry-After", async () => {
    const { getDb } = await import("../../db/client");
    const { createApiKey } = await import("../access/api-keys");
    const { secret } = await createApiKey(
      { db: getDb() },
      { projectId: p.projectId, name: "tight", role: "support", rateLimitPerSecond: 1, rateLimitBurst: 2 },
    );
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => api("GET", p.admin("/members"), { key: secret })),
    );
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    const r = refused[0]!;
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get("ratelimit-remaining")).toBe("0");
    expect(r.body.status).toBe(429);
  });
});

describe("public doors and sign-in mail (own server: postgres store, small budgets)", () => {
  let server: Awaited<ReturnType<typeof startNextServer>>;
  beforeAll(async () => {
    server = await startNextServer({
      DATABASE_URL: databaseUrl,
      RELAY_TEST_OUTBOX: "1",
      OUTBOX_PATH: `/tmp/relay-rl-outbox-${process.pid}.jsonl`,
      RATE_LIMIT_STORE: "postgres",
      RATE_LIMIT_IP: "1:3",
      RATE_LIMIT_SIGNIN_EMAIL: "2/3600",
      TRUST_PROXY: "",
    });
  }, 120_000);
  afterAll(() => server?.stop());

  it("limits a public door per caller address; forged X-Forwarded-For or peer headers do not escape it", async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${server.url}/u/not-a-token`, {
        redirect: "manual",
        headers: { "x-forwarded-for": `10.0.0.${i}`, "x-relay-peer": `10.1.0.${i}` },
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(statuses.slice(0, 3)).not.toContain(429);
    // Counted in the shared table, under the TCP peer's address, not under any forged one.
    const rows = await sql`select key from rate_limits where key like 'ip:public%'`;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.key.includes("10.0.0.") || r.key.includes("10.1.0."))).toBe(false);
  });

  it("limits sign-in mail per recipient on next-auth's own door (429 problem+json)", async () => {
    const email = `flood-${crypto.randomUUID()}@example.com`;
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const csrf = await fetch(`${server.url}/api/auth/csrf`);
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const cookie = csrf.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const res = await fetch(`${server.url}/api/auth/signin/nodemailer`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ email, csrfToken }),
      });
      statuses.push(res.status);
    }
    expect(statuses[0]).not.toBe(429);
    expect(statuses[1]).not.toBe(429);
    expect(statuses[2]).toBe(429);
  });
});
