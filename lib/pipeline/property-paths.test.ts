import { describe, expect, it } from "vitest";
import { propertyPaths, typeOf } from "./property-paths";

const asObject = (m: Map<string, Set<string>>) => Object.fromEntries([...m].map(([k, v]) => [k, [...v].sort()]));

describe("propertyPaths", () => {
  it("lists nested paths, array elements and ISO dates", () => {
    const paths = propertyPaths({ plan: "pro", seats: 3, ok: true, gone: null, address: { city: "Paris", geo: { lat: 1.5 } }, tags: ["a", 2], items: [{ sku: "x" }], at: "2026-01-02T03:04:05Z", day: "2026-01-02" });
    expect(asObject(paths)).toEqual({
      plan: ["string"], seats: ["number"], ok: ["boolean"], gone: ["null"],
      address: ["object"], "address.city": ["string"], "address.geo": ["object"], "address.geo.lat": ["number"],
      tags: ["array"], "tags[]": ["number", "string"], items: ["array"], "items[]": ["object"], "items[].sku": ["string"],
      at: ["date"], day: ["date"],
    });
  });

  it("does not take every digit string for a date", () => {
    expect(typeOf("2026-13-45")).toBe("string");
    expect(typeOf("12345")).toBe("string");
    expect(typeOf("2026-02-03 10:00")).toBe("date");
  });
});
