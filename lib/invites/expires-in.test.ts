import { describe, expect, it } from "vitest";
import { parseExpiresIn } from "./expires-in";

describe("parseExpiresIn", () => {
  it("reads minutes, hours and days", () => {
    expect(parseExpiresIn("90m")).toBe(90 * 60_000);
    expect(parseExpiresIn("24h")).toBe(24 * 3600_000);
    expect(parseExpiresIn("7d")).toBe(7 * 24 * 3600_000);
  });
  it("refuses other spellings", () => {
    for (const bad of ["", "0h", "7", "7 days", "1w", "-1d", "1.5h", "h"]) expect(parseExpiresIn(bad)).toBeNull();
  });
});
