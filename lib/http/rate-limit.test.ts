import { describe, expect, it } from "vitest";
import { takeToken } from "./rate-limit";

describe("token bucket", () => {
  it("allows a burst, then refills at the sustained rate", () => {
    const key = `k-${Math.random()}`;
    const t0 = 1_000_000;
    const allowed = Array.from({ length: 6 }, () => takeToken(key, 2, 5, t0).allowed);
    expect(allowed).toEqual([true, true, true, true, true, false]);
    const refused = takeToken(key, 2, 5, t0);
    expect(refused.retryAfterSeconds).toBe(1);
    expect(takeToken(key, 2, 5, t0 + 500).allowed).toBe(true); // 0.5 s at 2/s = 1 token
    expect(takeToken(key, 2, 5, t0 + 500).allowed).toBe(false);
  });

  it("never holds more than the burst", () => {
    const key = `k-${Math.random()}`;
    takeToken(key, 100, 3, 0);
    const later = takeToken(key, 100, 3, 60_000);
    expect(later.remaining).toBe(2);
    expect(later.limit).toBe(3);
  });
});
