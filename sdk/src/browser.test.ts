import { describe, expect, it } from "vitest";
import { ANONYMOUS_ID_KEY, RelayBrowser, USER_ID_KEY } from "./browser.js";
import { RelayAuthError } from "./errors.js";

/** A fetch that records each call and answers from a list (default 202). */
function fakeFetch(answers: Array<{ status: number; body?: unknown }> = []) {
  const calls: Array<{ url: string; init: RequestInit; body: any }> = [];
  const fn = (async (url: string, init: RequestInit) => {
    calls.push({ url, init, body: JSON.parse(init.body as string) });
    const a = answers.shift() ?? { status: 202, body: { accepted: true } };
    return new Response(a.body === undefined ? null : JSON.stringify(a.body), {
      status: a.status,
      headers: { "content-type": a.status >= 400 ? "application/problem+json" : "application/json" },
    });
  }) as unknown as typeof fetch;
  return { fn, calls };
}

function memory() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    m,
  };
}

const make = (fetch: typeof globalThis.fetch, storage = memory()) =>
  new RelayBrowser({
    apiKey: "rk_browser",
    baseUrl: "https://relay.test/",
    fetch,
    storage,
    flushIntervalMs: 10_000,
    maxRetries: 0,
  });

describe("RelayBrowser", () => {
  it("keeps one anonymous id in storage, across instances", () => {
    const storage = memory();
    const a = make(fakeFetch().fn, storage).anonymousId;
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(storage.m.get(ANONYMOUS_ID_KEY)).toBe(a);
    expect(make(fakeFetch().fn, storage).anonymousId).toBe(a);
  });

  it("identify upserts with both identifiers, only Authorization and Content-Type, keepalive", async () => {
    const { fn, calls } = fakeFetch();
    const relay = make(fn);
    await relay.identify("u-1", { email: "ada@example.com", data: { plan: "pro" } });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("https://relay.test/api/client/users");
    expect(calls[0]!.body).toEqual({
      email: "ada@example.com",
      data: { plan: "pro" },
      identifier: [
        { source: "anonymous", external_id: relay.anonymousId },
        { source: "default", external_id: "u-1" },
      ],
    });
    expect(Object.keys(calls[0]!.init.headers as Record<string, string>).sort()).toEqual([
      "authorization",
      "content-type",
    ]);
    expect(calls[0]!.init.keepalive).toBe(true);
    expect(relay.userId).toBe("u-1");
  });

  it("on a 409 (the ids name two users) identify repeats with the user id alone", async () => {
    const { fn, calls } = fakeFetch([{ status: 409, body: { status: 409, detail: "two users" } }]);
    await make(fn).identify("u-1");
    expect(calls.map((c) => c.body.identifier.map((i: any) => i.source))).toEqual([
      ["anonymous", "default"],
      ["default"],
    ]);
  });

  it("other errors reach the caller and onError, typed", async () => {
    const { fn } = fakeFetch([{ status: 403, body: { status: 403, detail: "origin" } }]);
    const seen: unknown[] = [];
    const relay = new RelayBrowser({
      apiKey: "rk",
      baseUrl: "https://relay.test",
      fetch: fn,
      storage: memory(),
      maxRetries: 0,
      onError: (e) => seen.push(e),
    });
    await expect(relay.identify("u-1")).rejects.toBeInstanceOf(RelayAuthError);
    expect(seen).toHaveLength(1);
  });

  it("track batches: anonymous before identify, the user id after, each event with a client id; reset forgets", async () => {
    const { fn, calls } = fakeFetch();
    const storage = memory();
    const relay = make(fn, storage);
    const anon = relay.anonymousId;
    void relay.track("viewed", { path: "/" });
    await relay.identify("u-1");
    void relay.track("bought", { sku: "A" });
    await relay.flush();
    const events = calls.filter((c) => c.url.endsWith("/users/events")).flatMap((c) => c.body);
    expect(events.map((e: any) => [e.name, e.identifier])).toEqual([
      ["viewed", [{ source: "anonymous", external_id: anon }]],
      ["bought", [{ source: "default", external_id: "u-1" }]],
    ]);
    expect(new Set(events.map((e: any) => e.id)).size).toBe(2);
    relay.reset();
    expect(storage.m.has(USER_ID_KEY)).toBe(false);
    expect(relay.anonymousId).not.toBe(anon);
  });
});
