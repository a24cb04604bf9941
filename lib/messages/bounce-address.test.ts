import { describe, expect, it } from "vitest";
import { bounceAddress, readBounceAddress } from "./bounce-address";

const target = { projectId: "0192e4a1-7b2c-7d3e-8f40-5a6b7c8d9e0f", messageId: "0193f5b2-8c3d-7e4f-9051-6b7c8d9e0f1a" };

describe("bounce address", () => {
  it("names the project and the message within SMTP's 64-character local part", () => {
    const a = bounceAddress(target, "bounces.example.com")!;
    expect(a).toMatch(/^b-[a-z2-7]+@bounces\.example\.com$/);
    expect(a.split("@")[0]!.length).toBeLessThanOrEqual(64);
    expect(readBounceAddress(a, "bounces.example.com")).toEqual(target);
  });

  it("reads an address whose case a mail server folded", () => {
    const a = bounceAddress(target, "bounces.example.com")!;
    expect(readBounceAddress(a.toUpperCase(), "bounces.example.com")).toEqual(target);
  });

  it("refuses a changed token, another domain and junk", () => {
    const a = bounceAddress(target, "bounces.example.com")!;
    const i = 10;
    const flipped = a.slice(0, i) + (a[i] === "a" ? "b" : "a") + a.slice(i + 1);
    expect(readBounceAddress(flipped, "bounces.example.com")).toBeNull();
    expect(readBounceAddress(a, "other.example.com")).toBeNull();
    for (const junk of [
      "",
      "@",
      "b-@x",
      "b-1@bounces.example.com",
      "x".repeat(400),
      `b-${"a".repeat(61)}@bounces.example.com`,
    ])
      expect(readBounceAddress(junk, "bounces.example.com")).toBeNull();
  });

  it("is null without BOUNCE_DOMAIN", () => {
    expect(bounceAddress(target, "")).toBeNull();
  });
});
