import { afterEach, describe, expect, it } from "vitest";
import { magicLinkCallback } from "./magic-link";

const form = (entries: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(entries)) f.set(k, v);
  return f;
};
const req = (headers: Record<string, string>) =>
  new Request("http://0.0.0.0:3000/auth/confirm/continue", { method: "POST", headers });

describe("magicLinkCallback", () => {
  afterEach(() => {
    delete process.env.AUTH_URL;
  });
  it("sends a same-site POST to next-auth's callback with only the link's parameters", () => {
    const target = magicLinkCallback(
      req({ host: "app.test", origin: "http://app.test" }),
      form({ token: "t", email: "a@b.c", callbackUrl: "/projects", extra: "x" }),
    );
    expect(target).toBe("http://app.test/api/auth/callback/nodemailer?callbackUrl=%2Fprojects&token=t&email=a%40b.c");
  });
  it("refuses a cross-site POST", () => {
    expect(
      magicLinkCallback(req({ host: "app.test", origin: "https://evil.test" }), form({ token: "t", email: "a@b.c" })),
    ).toBeNull();
  });
  it("treats `Origin: null` as cross-site (a sandboxed frame or data: page of another site)", () => {
    expect(
      magicLinkCallback(req({ host: "app.test", origin: "null" }), form({ token: "t", email: "a@b.c" })),
    ).toBeNull();
  });
  it("refuses a POST that Fetch Metadata marks cross-site, even without Origin", () => {
    expect(
      magicLinkCallback(
        req({ host: "app.test", "sec-fetch-site": "cross-site" }),
        form({ token: "t", email: "a@b.c" }),
      ),
    ).toBeNull();
  });
  it("uses AUTH_URL as the public origin when set, whatever Host or X-Forwarded-Host say", () => {
    process.env.AUTH_URL = "https://relay.example.com/api/auth";
    const forged = req({ host: "internal:3000", "x-forwarded-host": "evil.test", origin: "https://relay.example.com" });
    expect(magicLinkCallback(forged, form({ token: "t", email: "a@b.c" }))).toMatch(
      /^https:\/\/relay\.example\.com\/api\/auth\/callback/,
    );
    expect(
      magicLinkCallback(
        req({ host: "internal:3000", origin: "http://internal:3000" }),
        form({ token: "t", email: "a@b.c" }),
      ),
    ).toBeNull();
  });
  it("reduces the callbackUrl to a path on our origin, and an off-site one to /projects", () => {
    process.env.AUTH_URL = "https://relay.example.com";
    const ok = magicLinkCallback(
      req({ origin: "https://relay.example.com" }),
      form({ token: "t", email: "a@b.c", callbackUrl: "https://relay.example.com/projects/1" }),
    );
    expect(new URL(ok!).searchParams.get("callbackUrl")).toBe("/projects/1");
    for (const callbackUrl of ["//evil.example", "/\\evil.example", "https://evil.example/x"]) {
      const target = magicLinkCallback(
        req({ origin: "https://relay.example.com" }),
        form({ token: "t", email: "a@b.c", callbackUrl }),
      );
      expect(new URL(target!).searchParams.get("callbackUrl")).toBe("/projects");
    }
  });
});
