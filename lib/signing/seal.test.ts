import { describe, expect, it } from "vitest";
import { seal, unseal } from "./seal";

describe("seal", () => {
  it("round-trips, hides the plaintext and differs each time", () => {
    const a = seal("twilio-token-123");
    expect(a).not.toContain("twilio-token-123");
    expect(a).not.toBe(seal("twilio-token-123"));
    expect(unseal(a)).toBe("twilio-token-123");
  });
  it("refuses altered or foreign ciphertext, and another server secret", () => {
    const a = seal("twilio-token-123");
    const parts = a.split(".");
    parts[3] = Buffer.from(`x${Buffer.from(parts[3]!, "base64url").toString("latin1")}`, "latin1").toString(
      "base64url",
    );
    expect(unseal(parts.join("."))).toBeNull();
    expect(unseal("plain-token")).toBeNull();
    const saved = process.env.RELAY_SIGNING_SECRET;
    process.env.RELAY_SIGNING_SECRET = "a-different-server-secret";
    try {
      expect(unseal(a)).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.RELAY_SIGNING_SECRET;
      else process.env.RELAY_SIGNING_SECRET = saved;
    }
  });
});
