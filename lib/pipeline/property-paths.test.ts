import { describe, expect, it } from "vitest";
import { typeOf, walkPaths, type PropertyType } from "./property-paths";

/** Each visited path with the sorted, distinct types seen there. */
function visited(data: Record<string, unknown>): Record<string, PropertyType[]> {
  const out: Record<string, PropertyType[]> = {};
  walkPaths(data, (path, type) => {
    const seen = (out[path] ??= []);
    if (!seen.includes(type)) seen.push(type);
  });
  for (const types of Object.values(out)) types.sort();
  return out;
}

describe("walkPaths", () => {
  it("lists nested paths, array elements and ISO dates", () => {
    const paths = visited({
      plan: "pro",
      seats: 3,
      ok: true,
      gone: null,
      address: { city: "Paris", geo: { lat: 1.5 } },
      tags: ["a", 2],
      items: [{ sku: "x" }],
      at: "2026-01-02T03:04:05Z",
      day: "2026-01-02",
    });
    expect(paths).toEqual({
      plan: ["string"],
      seats: ["number"],
      ok: ["boolean"],
      gone: ["null"],
      address: ["object"],
      "address.city": ["string"],
      "address.geo": ["object"],
      "address.geo.lat": ["number"],
      tags: ["array"],
      "tags[]": ["number", "string"],
      items: ["array"],
      "items[]": ["object"],
      "items[].sku": ["string"],
      at: ["date"],
      day: ["date"],
    });
  });

  it("does not take every digit string for a date", () => {
    expect(typeOf("2026-13-45")).toBe("string");
    expect(typeOf("12345")).toBe("string");
    expect(typeOf("2026-02-03 10:00")).toBe("date");
  });
});
