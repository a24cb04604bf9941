import { describe, expect, it } from "vitest";
import { parseDuration } from "./retention-loop";

describe("RETENTION_INTERVAL durations", () => {
  it("reads ms, s, m, h and d", () => {
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("5s")).toBe(5_000);
    expect(parseDuration(" 30m ")).toBe(1_800_000);
    expect(parseDuration("1h")).toBe(3_600_000);
    expect(parseDuration("1.5d")).toBe(129_600_000);
  });

  it("refuses anything else, naming the value", () => {
    for (const bad of ["", "1", "h", "0s", "-1h", "1 hour", "1w"])
      expect(() => parseDuration(bad)).toThrow(/Not a duration/);
  });
});
