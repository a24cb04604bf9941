import { describe, expect, it } from "vitest";
import { MAX_LOGGED_BODY, redactBody } from "./redact-body";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("redactBody", () => {
  it("replaces secret-named fields at any depth and scrubs API keys inside strings", () => {
    const out = redactBody(
      bytes(
        JSON.stringify({
          a: { password: "p", Token: "t", list: [{ api_key: "k" }] },
          note: "use rk_abcdef123456 here",
          keep: "ok",
        }),
      ),
    )!;
    expect(JSON.parse(out)).toEqual({
      a: { password: "[redacted]", Token: "[redacted]", list: [{ api_key: "[redacted]" }] },
      note: "use rk_[redacted] here",
      keep: "ok",
    });
  });

  it("scrubs a body that is not JSON as text, and answers null for no body", () => {
    expect(redactBody(bytes("{broken Bearer abc.def"))).toBe("{broken Bearer [redacted]");
    expect(redactBody(new Uint8Array())).toBeNull();
    expect(redactBody(undefined)).toBeNull();
  });

  it("caps at 4 KiB on a character boundary and says how big the body was", () => {
    const body = JSON.stringify({ s: "é".repeat(10_000) });
    const out = redactBody(bytes(body))!;
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(MAX_LOGGED_BODY);
    expect(out).toMatch(/…\[truncated, \d+ bytes\]$/);
    expect(out).not.toContain("\uFFFD");
  });
});
