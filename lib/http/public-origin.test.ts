import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { assertPublicOriginConfigured, configuredOrigin, publicOrigin } from "./public-origin";

const NAMES = ["AUTH_URL", "APP_URL", "RELAY_PUBLIC_URL", "NODE_ENV"] as const;
const saved: Record<string, string | undefined> = {};
const env = process.env as Record<string, string | undefined>;
const forged = () =>
  new Request("http://localhost:3000/x", {
    headers: { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
  });

beforeEach(() => {
  for (const n of NAMES) saved[n] = env[n];
  for (const n of NAMES.slice(0, 3)) delete env[n];
});
afterEach(() => {
  for (const n of NAMES)
    if (saved[n] === undefined) delete env[n];
    else env[n] = saved[n];
  vi.restoreAllMocks();
});

describe("publicOrigin", () => {
  it("is AUTH_URL's origin, never a header, when configured", () => {
    env.AUTH_URL = "https://relay.example.com/api/auth";
    expect(publicOrigin(forged())).toBe("https://relay.example.com");
    expect(publicOrigin()).toBe("https://relay.example.com");
  });

  it("accepts APP_URL and RELAY_PUBLIC_URL as aliases, with a warning, and hands the value to next-auth as AUTH_URL", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    env.RELAY_PUBLIC_URL = "http://127.0.0.1:3900";
    expect(publicOrigin(forged())).toBe("http://127.0.0.1:3900");
    expect(env.AUTH_URL).toBe("http://127.0.0.1:3900");
    delete env.AUTH_URL;
    env.APP_URL = "https://app.example.com";
    expect(configuredOrigin()).toBe("https://app.example.com");
    expect(warn.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it("refuses in production without it, in one clear line", () => {
    env.NODE_ENV = "production";
    expect(() => publicOrigin(forged())).toThrow(/^AUTH_URL is not set/);
    expect(() => assertPublicOriginConfigured()).toThrow(/AUTH_URL/);
    env.AUTH_URL = "https://relay.example.com";
    expect(() => assertPublicOriginConfigured()).not.toThrow();
  });

  it("refuses an AUTH_URL that is not http(s)", () => {
    env.AUTH_URL = "javascript:alert(1)";
    expect(() => configuredOrigin()).toThrow(/http/);
  });

  it("in development derives it from the request's host, and ignores a malformed host", () => {
    env.NODE_ENV = "development";
    expect(publicOrigin(new Request("http://localhost:3000/x", { headers: { host: "127.0.0.1:3000" } }))).toBe(
      "http://127.0.0.1:3000",
    );
    expect(publicOrigin(new Request("http://localhost:3000/x", { headers: { host: "a@b/c" } }))).toBe(
      "http://localhost:3000",
    );
  });
});
