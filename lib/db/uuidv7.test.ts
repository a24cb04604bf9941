import { describe, expect, it } from "vitest";
import { uuidv7s } from "./uuidv7";

describe("uuidv7s", () => {
  it("lays out version 7, variant 10 and the millisecond timestamp", () => {
    const now = Date.UTC(2026, 10, 24, 12, 0, 0, 123);
    const ids = uuidv7s(50, now);
    expect(ids).toHaveLength(50);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBe(now);
    }
  });

  it("draws distinct ids within one millisecond", () => {
    const ids = uuidv7s(10_000, 1_700_000_000_000);
    expect(new Set(ids).size).toBe(10_000);
  });

  it("never hands out the same random bytes twice to small calls, across refills of the pool", () => {
    // 2,000 calls of three ids use the 4 KiB pool about 23 times over; a byte handed out twice would
    // repeat an id (all share one millisecond, so only the random bits tell them apart).
    const ids = Array.from({ length: 2_000 }, () => uuidv7s(3, 1_700_000_000_000)).flat();
    expect(new Set(ids).size).toBe(6_000);
    for (const id of ids.slice(0, 50)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/);
  });

  it("orders ids of later milliseconds after earlier ones", () => {
    const [a] = uuidv7s(1, 1_700_000_000_000);
    const [b] = uuidv7s(1, 1_700_000_000_001);
    expect(a! < b!).toBe(true);
  });

  it("returns nothing for zero", () => {
    expect(uuidv7s(0)).toEqual([]);
  });
});
