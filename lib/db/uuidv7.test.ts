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

  it("orders ids of later milliseconds after earlier ones", () => {
    const [a] = uuidv7s(1, 1_700_000_000_000);
    const [b] = uuidv7s(1, 1_700_000_000_001);
    expect(a! < b!).toBe(true);
  });

  it("returns nothing for zero", () => {
    expect(uuidv7s(0)).toEqual([]);
  });
});
