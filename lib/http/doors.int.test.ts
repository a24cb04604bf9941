import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { createGzip, deflateSync, gzipSync } from "node:zlib";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { startNextServer } from "../../scripts/test/next-server";
import { createTestAdmin } from "../../scripts/test/sessions";
import { waitFor } from "../../scripts/test/worker";

/*
 * The doors of issue 33, each tried as the attacker did, against a production server of this file's own
 * (its own limits: a metrics token, a proxy to trust for caller addresses, small import caps).
 */
const METRICS_TOKEN = "doors-metrics-token";
const outboxPath = `/tmp/relay-doors-outbox-${process.pid}.jsonl`;
let server: Awaited<ReturnType<typeof startNextServer>>;
let p: TestProject;

beforeAll(async () => {
  server = await startNextServer({
    DATABASE_URL: inject("databaseUrl"),
    RELAY_TEST_OUTBOX: "1",
    OUTBOX_PATH: outboxPath,
    METRICS_TOKEN,
    TRUST_PROXY: "1",
    RATE_LIMIT_IP: "5:5",
    RATE_LIMIT_SIGNIN_IP: "1000/3600",
    RATE_LIMIT_SIGNIN_EMAIL: "5/3600",
    IMPORT_MAX_STORED_BYTES: String(3 * 1024 * 1024),
  });
  p = await createTestProject("doors");
}, 180_000);
afterAll(() => server?.stop());

let ip = 0;
/** A caller address of its own per call unless given: only the budget under test is shared. */
const freshAddress = () => `10.33.${(++ip >> 8) & 255}.${ip & 255}`;

async function call(
  method: string,
  path: string,
  opts: { key?: string; body?: BodyInit; json?: unknown; headers?: Record<string, string>; from?: string } = {},
) {
  const headers: Record<string, string> = { "x-forwarded-for": opts.from ?? freshAddress(), ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(server.url + path, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed, headers: res.headers };
}

const eventCount = async (name: string) =>
  (
    await sql`select (select count(*) from event_intake where project_id = ${p.projectId} and name = ${name})
      + (select count(*) from events where project_id = ${p.projectId} and name = ${name}) as n`
  )[0]!.n as string;

describe("6. compressed bodies", () => {
  it("accepts gzip and deflate on JSON endpoints, refuses other encodings with 415 and a bomb with 413", async () => {
    const batch = { batch: [{ type: "track", userId: "gz-1", event: "Gzipped", properties: { n: 1 } }] };
    const gz = await call("POST", "/v1/batch", {
      key: p.keys.client,
      body: gzipSync(JSON.stringify(batch)),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(gz.status).toBe(200);
    expect(Number(await eventCount("Gzipped"))).toBe(1);

    const user = await call("POST", p.client("/users"), {
      key: p.keys.client,
      body: deflateSync(JSON.stringify({ identifier: [{ external_id: "deflated-1" }], data: { ok: true } })),
      headers: { "content-type": "application/json", "content-encoding": "deflate" },
    });
    expect(user.status).toBe(201);
    expect(user.body.data).toEqual({ ok: true });

    const br = await call("POST", p.client("/users"), {
      key: p.keys.client,
      body: JSON.stringify({ identifier: [{ external_id: "br-1" }] }),
      headers: { "content-type": "application/json", "content-encoding": "br" },
    });
    expect(br.status).toBe(415);
    expect(br.headers.get("content-type")).toBe("application/problem+json");

    const corrupt = await call("POST", p.client("/users"), {
      key: p.keys.client,
      body: Buffer.from("not gzip at all"),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(corrupt.status).toBe(400);

    // 512 MiB of zeros in about half a megabyte: it must be refused once 1 MiB has come out.
    const bomb = await buffer(
      Readable.from(
        (function* () {
          for (let i = 0; i < 512; i++) yield Buffer.alloc(1024 * 1024);
        })(),
      ).pipe(createGzip()),
    );
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const refused = await call("POST", "/v1/batch", {
      key: p.keys.client,
      body: bomb,
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(refused.status).toBe(413);
    expect(refused.body.detail).toMatch(/1 MiB/);
    // The server is no worse for it.
    expect((await call("GET", "/api/health/live")).status).toBe(200);
  });
});

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

describe("imports per project", () => {
  const upload = (body: BodyInit) =>
    call("POST", p.admin("/imports?kind=users"), {
      key: p.keys.client,
      body,
      headers: { "content-type": "text/csv" },
    });

  /** The init of a POST that streams `stream` as CSV with the client key, from an address of its own. */
  const streamedCsv = (stream: ReadableStream<Uint8Array>) => ({
    method: "POST",
    headers: {
      authorization: `Bearer ${p.keys.client}`,
      "content-type": "text/csv",
      "x-forwarded-for": freshAddress(),
    },
    body: stream,
    duplex: "half" as const,
  });

  /** An upload that sends `head`, then waits for `release()` before sending `tail`: it stays `uploading`. */
  function heldUpload(head: string, tail = "") {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        await gate;
        if (tail) controller.enqueue(new TextEncoder().encode(tail));
        controller.close();
      },
    });
    const response = undiciFetch(server.url + p.admin("/imports?kind=users"), {
      ...streamedCsv(stream),
      // A connection of its own: a streamed body cannot be retried on a kept-alive socket the server just closed.
      dispatcher: new Agent(),
    });
    return { release, response };
  }
  const uploading = async (minBytes = 0) =>
    (
      await sql`select id, bytes from imports where project_id = ${p.projectId} and state = 'uploading' and bytes >= ${minBytes}`
    ).length;
  const big = (rows: number, prefix: string) =>
    `external_id,data.pad\n${Array.from({ length: rows }, (_, i) => `${prefix}-${i},${"x".repeat(1000)}`).join("\n")}\n`;

  it("8. at most 2 unfinished imports (429 + Retry-After), and a bounded number of stored bytes", async () => {
    // Two uploads still streaming are unfinished imports (a worker of another test file cannot finish them).
    const held = [heldUpload("external_id\ncap-1\n"), heldUpload("external_id\ncap-2\n")];
    await waitFor(async () => (await uploading()) === 2, 30_000, "two uploads under way");
    const third = await upload("external_id\ncap-3\n");
    expect(third.status).toBe(429);
    expect(third.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    for (const h of held) h.release();
    for (const h of held) {
      const res = await h.response;
      expect(res.status).toBe(202);
      await call("DELETE", p.admin(`/imports/${((await res.json()) as { id: string }).id}`), { key: p.keys.client });
    }

    // A file larger than the project may hold at all: 413 while streaming, nothing kept.
    const tooBig = await upload(big(4000, "huge"));
    expect(tooBig.status).toBe(413);
    // About 2 MiB of the 3 MiB stored by an upload under way: the next 1.5 MiB does not fit.
    const first = heldUpload(big(2100, "half"));
    await waitFor(async () => (await uploading(2 * 1024 * 1024)) === 1, 30_000, "2 MiB stored");
    const second = await upload(big(1500, "more"));
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
    const [chunks] =
      await sql`select coalesce(sum(octet_length(bytes)), 0)::int as b from import_chunks where project_id = ${p.projectId}`;
    expect(chunks!.b).toBeLessThanOrEqual(3 * 1024 * 1024);
    first.release();
    const done = await first.response;
    expect(done.status).toBe(202);
    await call("DELETE", p.admin(`/imports/${((await done.json()) as { id: string }).id}`), { key: p.keys.client });
  });

  it("an upload cancelled while streaming stays cancelled, with no chunks", async () => {
    let resume!: () => void;
    const gate = new Promise<void>((r) => (resume = r));
    const line = `${"y".repeat(1000)}\n`;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const enc = new TextEncoder();
        controller.enqueue(enc.encode("external_id,data.pad\n"));
        for (let i = 0; i < 1100; i++) controller.enqueue(enc.encode(`race-${i},${line}`));
        await gate;
        for (let i = 1100; i < 1500; i++) controller.enqueue(enc.encode(`race-${i},${line}`));
        controller.close();
      },
    });
    const pending = fetch(server.url + p.admin("/imports?kind=users"), streamedCsv(stream) as RequestInit);
    const [row] = await waitFor(
      async () => {
        const r =
          await sql`select id from imports where project_id = ${p.projectId} and state = 'uploading' and bytes > 0`;
        return r.length ? r : null;
      },
      30_000,
      "the upload under way",
    );
    const cancelled = await call("DELETE", p.admin(`/imports/${row!.id}`), { key: p.keys.client });
    expect(cancelled.body.state).toBe("cancelled");
    resume();
    const res = await pending;
    expect(res.status).toBe(422);
    const [after] = await sql`select state from imports where project_id = ${p.projectId} and id = ${row!.id}`;
    expect(after!.state).toBe("cancelled");
    const [chunks] = await sql`select count(*)::int as n from import_chunks where import_id = ${row!.id}`;
    expect(chunks!.n).toBe(0);
  });
});

describe("7. sign-in mail limits count the address Auth.js sends to", () => {
  it("ten requests alternating decorated spellings of one address send at most the limit (5)", async () => {
    const admin = await createTestAdmin(`victim-${crypto.randomUUID()}@example.com`);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const spelled = i % 2 ? `${admin.email.toUpperCase()} ` : `${admin.email},${i}`;
      statuses.push((await requestSignIn(spelled)).status);
    }
    const mails = (await outbox()).filter((m) => m.to.toLowerCase() === admin.email);
    expect(mails.length).toBeGreaterThan(0);
    expect(mails.length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
  });
});

describe("2. no sign-in through a cross-site request", () => {
  it("the GET e-mail callback refuses Sec-Fetch-Site cross-site and same-site, and signs in same-origin", async () => {
    const admin = await createTestAdmin(`csrf-${crypto.randomUUID()}@example.com`);
    expect((await requestSignIn(admin.email)).status).toBe(302);
    const mail = (await outbox()).filter((m) => m.to === admin.email).at(-1)!;
    const link = new URL(/https?:\/\/\S+\/auth\/confirm\?\S+/.exec(mail.text)![0]);
    const callback = `${server.url}/api/auth/callback/nodemailer?${new URLSearchParams({
      token: link.searchParams.get("token")!,
      email: link.searchParams.get("email")!,
    })}`;
    for (const site of ["cross-site", "same-site"]) {
      const res = await fetch(callback, { redirect: "manual", headers: { "sec-fetch-site": site } });
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(false);
    }
    const evil = await fetch(callback, { redirect: "manual", headers: { origin: "https://evil.example" } });
    expect(evil.status).toBe(403);
    // The token was not spent by the refusals: the same-origin navigation signs in.
    const ok = await fetch(callback, { redirect: "manual", headers: { "sec-fetch-site": "same-origin" } });
    expect(ok.status).toBe(302);
    expect(ok.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(true);
  });
});

describe("caller budgets", () => {
  it("an IPv6 caller is counted by its /64: rotating the low bits does not escape the limit", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 12; i++)
      statuses.push((await call("GET", "/u/not-a-token", { from: `2001:db8:33:1::${i.toString(16)}` })).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const other = await call("GET", "/u/not-a-token", { from: "2001:db8:33:2::1" });
    expect(other.status).not.toBe(429);
  });

  it("a browser key checks Origin before spending its budget, and counts it per caller address", async () => {
    const { getDb } = await import("../../db/client");
    const { createApiKey } = await import("../access/api-keys");
    const site = "https://shop.example";
    const browser = await createApiKey(
      { db: getDb() },
      {
        projectId: p.projectId,
        name: "browser",
        role: "client",
        rateLimitPerSecond: 1,
        rateLimitBurst: 3,
        allowedOrigins: [site],
      },
    );
    const event = (from: string, origin = site) =>
      call("POST", p.client("/users/events"), {
        key: browser.secret,
        json: [{ name: "Viewed", identifier: [{ source: "anonymous", external_id: `v-${from}` }], data: {} }],
        headers: { origin },
        from,
      });
    // Wrong origins are refused without touching the key's budget.
    for (let i = 0; i < 6; i++) expect((await event(`10.44.0.${i}`, "https://evil.example")).status).toBe(403);
    expect((await event("10.44.1.1")).status).toBe(202);
    // One abuser spends its own share only.
    const abuser: number[] = [];
    for (let i = 0; i < 10; i++) abuser.push((await event("10.44.2.2")).status);
    expect(abuser).toContain(429);
    expect((await event("10.44.3.3")).status).toBe(202);
  });
});

async function requestSignIn(email: string) {
  const from = freshAddress();
  const csrf = await fetch(`${server.url}/api/auth/csrf`, { headers: { "x-forwarded-for": from } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return fetch(`${server.url}/api/auth/signin/nodemailer`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, "x-forwarded-for": from },
    body: new URLSearchParams({ email, csrfToken, callbackUrl: "/projects" }),
  });
}

async function outbox(): Promise<{ to: string; text: string }[]> {
  const text = await readFile(outboxPath, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
