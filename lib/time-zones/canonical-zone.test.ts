import { describe, expect, it } from "vitest";
import { userInput } from "@/lib/users/schemas";
import { localMinutes } from "@/lib/messages/quiet-hours";
import { pickZone } from "@/lib/journeys/time-zone";
import { canonicalZone } from "./canonical-zone";

describe("time zones read one way everywhere", () => {
  it("spells a zone in any letter case the one canonical way, and refuses what is none", () => {
    expect(canonicalZone("europe/paris")).toBe("Europe/Paris");
    expect(canonicalZone("AMERICA/NEW_YORK")).toBe("America/New_York");
    expect(canonicalZone("Mars/Olympus")).toBeNull();
    expect(canonicalZone("")).toBeNull();
  });

  it("stores a user's zone in that spelling, so SQL's `at time zone` (broadcasts) reads it as Intl does", () => {
    const u = userInput.parse({ identifier: [{ external_id: "x" }], timezone: "europe/paris" });
    expect(u.timezone).toBe("Europe/Paris");
  });

  it("reads the same zone for quiet hours and journeys", () => {
    const at = new Date("2026-12-01T12:00:00Z");
    expect(localMinutes(at, "europe/paris")).toBe(13 * 60);
    expect(pickZone("user", () => "europe/paris", null)).toEqual({ zone: "Europe/Paris", note: null });
  });
});
