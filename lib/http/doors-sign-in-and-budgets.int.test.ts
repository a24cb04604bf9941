import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createTestAdmin } from "../../scripts/test/sessions";
import { call, doorsServerForFile, freshAddress, outboxPath, p, server } from "../../test/fixtures/doors";

// Doors 2 and 7 of issue 33 and the caller budgets, against a server of this file's own (test/fixtures/doors.ts).
doorsServerForFile("doors-sign-in");

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
    // Wrong origins are refused without touching the key's budget: more calls than its burst (3) from one
    // address, and that address still has its whole burst for calls from the listed origin. (A refusal
    // before any credential counts is charged to the address's anonymous budget, 5 here: four stay under.)
    for (let i = 0; i < 4; i++) expect((await event("10.44.1.1", "https://evil.example")).status).toBe(403);
    const after = [await event("10.44.1.1"), await event("10.44.1.1"), await event("10.44.1.1")];
    expect(after.map((r) => r.status)).toEqual([202, 202, 202]);
    // One abuser spends its own share only.
    const abuser: number[] = [];
    for (let i = 0; i < 10; i++) abuser.push((await event("10.44.2.2")).status);
    expect(abuser).toContain(429);
    expect((await event("10.44.3.3")).status).toBe(202);
  });

  it("charges a wrong-origin refusal to its address's anonymous budget: a burst of them from one address ends in 429", async () => {
    const { getDb } = await import("../../db/client");
    const { createApiKey } = await import("../access/api-keys");
    const browser = await createApiKey(
      { db: getDb() },
      {
        projectId: p.projectId,
        name: "browser-charged",
        role: "client",
        rateLimitPerSecond: 1000,
        rateLimitBurst: 1000,
        allowedOrigins: ["https://shop.example"],
      },
    );
    const from = "10.44.5.5";
    const wrong = () =>
      call("POST", p.client("/users/events"), {
        key: browser.secret,
        json: [{ name: "Viewed", identifier: [{ source: "anonymous", external_id: "v-charged" }], data: {} }],
        headers: { origin: "https://evil.example" },
        from,
      });
    // Twenty at once from one address against an anonymous budget of 5 a second: if the refusals were not
    // charged, every one would be a 403. The key's own budget (1,000) is not what runs out here.
    const statuses = (await Promise.all(Array.from({ length: 20 }, wrong))).map((r) => r.status);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 403 && s !== 429)).toEqual([]);
    // Charged to that address only: another address's wrong-origin call is still answered 403.
    const other = await call("POST", p.client("/users/events"), {
      key: browser.secret,
      json: [],
      headers: { origin: "https://evil.example" },
      from: "10.44.6.6",
    });
    expect(other.status).toBe(403);
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
