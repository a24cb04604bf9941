import { describe, expect, it } from "vitest";
import { signInAddress } from "@/lib/access/sign-in-address";
import { routeTemplate, UNMATCHED_ROUTE } from "@/lib/observability/route-template";
import { redactErrors } from "@/lib/request-log/redact-body";
import { addressBucket } from "./client-address";
import { textShape } from "./json-shape";

describe("addressBucket", () => {
  it("keeps IPv4, maps IPv4-mapped IPv6 to IPv4, and cuts IPv6 to its /64", () => {
    expect(addressBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe(addressBucket("2001:db8:1:2::1"));
    expect(addressBucket("2001:0db8:0001:0002::ff")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:3::1")).not.toBe(addressBucket("2001:db8:1:2::1"));
    expect(addressBucket("unknown")).toBe("unknown");
  });
});

describe("signInAddress", () => {
  it("normalises as Auth.js does: lower case, trimmed, the domain cut at a comma", () => {
    expect(signInAddress("Victim@Example.com ")).toBe("victim@example.com");
    expect(signInAddress("victim@example.com,2")).toBe("victim@example.com");
    expect(signInAddress("victim＠example.com")).toBe("victim@example.com"); // NFKC: a full-width @
    expect(signInAddress('"a@b"@example.com')).toBeNull();
    expect(signInAddress("no-at-sign")).toBeNull();
  });
});

describe("routeTemplate", () => {
  it("labels a path with the route that serves it; made-up paths share one label", () => {
    expect(routeTemplate("/l/made-up-1")).toBe("/l/:token");
    expect(routeTemplate("/l/made-up-2")).toBe("/l/:token");
    expect(routeTemplate("/v1/track")).toBe("/v1/:type");
    expect(routeTemplate(`/api/admin/projects/${crypto.randomUUID()}/users`)).toBe(
      "/api/admin/projects/:projectID/users",
    );
    expect(routeTemplate("/no/such/page")).toBe(UNMATCHED_ROUTE);
    expect(routeTemplate("/l/a/b")).toBe(UNMATCHED_ROUTE);
  });
});

describe("textShape", () => {
  it("counts depth and values on the text, ignoring brackets and commas inside strings", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(textShape(enc('{"a":[{},{},{}],"b":"[,{:"}'), { maxDepth: 10, maxValues: 100 })).toEqual({
      depth: 3,
      values: 7,
    });
    const many = textShape(enc(`[${"{},".repeat(5000)}{}]`), { maxDepth: 10, maxValues: 100 });
    expect(many.values).toBeGreaterThan(100);
    expect(textShape(enc("[".repeat(50)), { maxDepth: 40, maxValues: 100 }).depth).toBeGreaterThan(40);
  });
});

describe("redactErrors", () => {
  it("caps count, path and message, and hides the message of a secret-named field", () => {
    const errors = Array.from({ length: 90 }, (_, i) => ({ path: `${i}${"f".repeat(10_000)}`, message: "unknown" }));
    const out = redactErrors(errors)!;
    expect(JSON.stringify(out).length).toBeLessThan(3 * 1024);
    expect(out.at(-1)!.message).toMatch(/more not logged/);
    expect(redactErrors([{ path: "twilio_auth_token", message: "bad value tw-123" }])).toEqual([
      { path: "twilio_auth_token", message: "[redacted]" },
    ]);
  });
});

describe("compactError", () => {
  it("keeps type, message, code and a short stack, never the rest of a driver's error object", async () => {
    const { compactError } = await import("@/lib/observability/logger");
    const err = Object.assign(new Error("connect ECONNREFUSED"), {
      code: "ECONNREFUSED",
      client: { options: { password: "hunter2" }, queue: Array.from({ length: 1000 }, (_, i) => ({ i })) },
    });
    const out = compactError(err) as Record<string, unknown>;
    expect(Object.keys(out).sort()).toEqual(["code", "message", "stack", "type"]);
    expect(JSON.stringify(out).length).toBeLessThan(3000);
    expect(JSON.stringify(out)).not.toContain("hunter2");
  });
});

describe("outboxPageVisible", () => {
  it("answers only a loopback peer in development, and never in production", async () => {
    const { outboxPageVisible } = await import("@/lib/mail/outbox");
    const env = process.env as Record<string, string | undefined>;
    const before = env.NODE_ENV;
    try {
      env.NODE_ENV = "development";
      expect(outboxPageVisible("127.0.0.1")).toBe(true);
      expect(outboxPageVisible("::1")).toBe(true);
      expect(outboxPageVisible("::ffff:127.0.0.1")).toBe(true);
      expect(outboxPageVisible("10.0.0.5")).toBe(false);
      expect(outboxPageVisible(null)).toBe(false);
      env.NODE_ENV = "production";
      expect(outboxPageVisible("127.0.0.1")).toBe(false);
    } finally {
      env.NODE_ENV = before;
    }
  });
});
