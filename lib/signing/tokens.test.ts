import { describe, expect, it } from "vitest";
import { signToken, verifyToken } from "./tokens";

describe("signed tokens", () => {
  const payload = { p: "0192a4e0-0000-7000-8000-000000000001", u: "0192a4e0-0000-7000-8000-000000000002" };

  it("round-trips for the same purpose", () => {
    expect(verifyToken("preferences", signToken("preferences", payload))).toEqual(payload);
  });

  it("refuses a token signed for another purpose", () => {
    expect(verifyToken("unsubscribe", signToken("preferences", payload))).toBeNull();
  });

  it("refuses a changed payload, a changed or re-spelled signature, and junk", () => {
    const token = signToken("link", payload);
    const [body, sig] = token.split(".") as [string, string];
    const other = Buffer.from(JSON.stringify({ ...payload, u: "0192a4e0-0000-7000-8000-000000000003" })).toString(
      "base64url",
    );
    expect(verifyToken("link", `${other}.${sig}`)).toBeNull();
    const flipped = sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A");
    expect(verifyToken("link", `${body}.${flipped}`)).toBeNull();
    // The last base64url character carries 2 unused bits: other spellings of the same bytes must fail too.
    const last = sig.at(-1)!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sibling = alphabet[(alphabet.indexOf(last) & ~3) + ((alphabet.indexOf(last) & 3) ^ 1)]!;
    expect(Buffer.from(sig.slice(0, -1) + sibling, "base64url")).toEqual(Buffer.from(sig, "base64url"));
    expect(verifyToken("link", `${body}.${sig.slice(0, -1)}${sibling}`)).toBeNull();
    for (const junk of ["", ".", body, `${body}.`, `.${sig}`, `${body}.${sig}.x`, "a.b", `${body}=.${sig}`])
      expect(verifyToken("link", junk)).toBeNull();
  });

  it("depends on the server secret", () => {
    const token = signToken("link", payload);
    const saved = process.env.RELAY_SIGNING_SECRET;
    process.env.RELAY_SIGNING_SECRET = "another-secret-of-enough-length";
    try {
      expect(verifyToken("link", token)).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.RELAY_SIGNING_SECRET;
      else process.env.RELAY_SIGNING_SECRET = saved;
    }
  });

  it("refuses to sign in production without a secret", () => {
    const saved = { s: process.env.RELAY_SIGNING_SECRET, a: process.env.AUTH_SECRET, n: process.env.NODE_ENV };
    delete process.env.RELAY_SIGNING_SECRET;
    delete process.env.AUTH_SECRET;
    (process.env as Record<string, string>).NODE_ENV = "production";
    try {
      expect(() => signToken("link", payload)).toThrow(/RELAY_SIGNING_SECRET/);
    } finally {
      Object.assign(process.env, { RELAY_SIGNING_SECRET: saved.s, AUTH_SECRET: saved.a, NODE_ENV: saved.n });
      if (saved.s === undefined) delete process.env.RELAY_SIGNING_SECRET;
      if (saved.a === undefined) delete process.env.AUTH_SECRET;
    }
  });
});
