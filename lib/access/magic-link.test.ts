import { afterEach, describe, expect, it } from "vitest";
import { magicLinkCallback } from "./magic-link";

const form = (entries: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(entries)) f.set(k, v);
  return f;
};
const req = (headers: Record<string, string>) => new Request("http://0.0.0.0:3000/auth/confirm/continue", { method: "POST", headers });

describe("magicLinkCallback", () => {
  afterEach(() => {
    delete process.env.AUTH_URL;
  });
  it("sends a same-site POST to next-auth's callback with only the link's parameters", () => {
    const target = magicLinkCallback(req({ host: "app.test", origin: "http://app.test" }), form({ token: "t", email: "a@b.c", callbackUrl: "/projects", extra: "x" }));
    expect(target).toBe("http://app.test/api/auth/callback/nodemailer?callbackUrl=%2Fprojects&token=t&email=a%40b.c");
  });
  it("refuses a cross-site POST", () => {
    expect(magicLinkCallback(req({ host: "app.test", origin: "https://evil.test" }), form({ token: "t", email: "a@b.c" }))).toBeNull();
  });
  it("uses AUTH_URL as the public origin when set", () => {
    process.env.AUTH_URL = "https://relay.example.com/api/auth";
    expect(magicLinkCallback(req({ host: "internal:3000", origin: "https://relay.example.com" }), form({ token: "t", email: "a@b.c" }))).toMatch(/^https:\/\/relay\.example\.com\/api\/auth\/callback/);
  });
});
