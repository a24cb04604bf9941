import { describe, expect, it } from "vitest";
import { fromWire, toWire } from "./case";
import { backoffMs, retryAfterMs } from "./http";

describe("case mapping", () => {
  it("renames our fields both ways and leaves data, metadata and match contents alone", () => {
    const input = {
      identifier: [{ externalId: "a", metadata: { someKey: 1 } }],
      scheduledAt: "t",
      data: { firstName: "A", nested: { deepKey: 1 } },
      match: { planName: "x" },
    };
    const wire = toWire(input);
    expect(wire).toEqual({
      identifier: [{ external_id: "a", metadata: { someKey: 1 } }],
      scheduled_at: "t",
      data: { firstName: "A", nested: { deepKey: 1 } },
      match: { planName: "x" },
    });
    expect(fromWire({ created_at: "c", data: { first_name: 1 }, identifier: [{ external_id: "a" }] })).toEqual({
      createdAt: "c",
      data: { first_name: 1 },
      identifier: [{ externalId: "a" }],
    });
  });
});

describe("retry timing", () => {
  it("reads Retry-After as seconds or a date", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs("soon")).toBeUndefined();
  });
  it("backs off exponentially with full jitter, capped at 10 s", () => {
    expect(backoffMs(0, 200, () => 0.5)).toBe(100);
    expect(backoffMs(3, 200, () => 1)).toBe(1600);
    expect(backoffMs(20, 200, () => 1)).toBe(10_000);
    expect(backoffMs(5, 200, () => 0)).toBe(0);
  });
});
