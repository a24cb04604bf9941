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

  it("redacts secret-named members of a body that is not valid JSON, keeping the rest of its text", () => {
    // Cut off before its closing brace: JSON.parse refuses it, so only the text pass can redact it.
    const out = redactBody(
      bytes(
        '{"name": "Ada", "password": "hunter2", "api_key": k-123, "webhook_url": "https://hooks.example/T1/s3cr3t"',
      ),
    )!;
    expect(out).toBe('{"name": "Ada", "password": "[redacted]", "api_key": "[redacted]", "webhook_url": "[redacted]"');
    // An unterminated secret string is redacted to the end, not left half there.
    expect(redactBody(bytes('{"token": "abc'))).toBe('{"token": "[redacted]"');
  });

  it("caps at 4 KiB on a character boundary and says how big the body was", () => {
    const body = JSON.stringify({ s: "é".repeat(10_000) });
    const out = redactBody(bytes(body))!;
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(MAX_LOGGED_BODY);
    expect(out).toMatch(/…\[truncated, \d+ bytes\]$/);
    expect(out).not.toContain("\uFFFD");
  });
});
