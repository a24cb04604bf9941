import { describe, expect, it } from "vitest";
import { schemaDeltaOf } from "./discover-schema";

describe("schemaDeltaOf", () => {
  it("counts a path once per event, unions types, widens first/last seen, and weighs fan-out samples", () => {
    const delta = schemaDeltaOf([
      { name: "A", data: { tags: ["x", "y", 3] }, receivedAt: "2026-01-01 10:00:00+00" },
      { name: "A", data: { tags: [] }, receivedAt: "2026-01-02T10:00:00.000Z" },
      { name: "B", data: { n: 1 }, receivedAt: "2026-01-01 09:00:00.5+00", times: 5000 },
    ]);
    expect(delta).toEqual([
      { n: "A", p: "", t: ["object"], c: 2, f: "2026-01-01T10:00:00.000Z", l: "2026-01-02T10:00:00.000Z" },
      { n: "A", p: "tags", t: ["array"], c: 2, f: "2026-01-01T10:00:00.000Z", l: "2026-01-02T10:00:00.000Z" },
      { n: "A", p: "tags[]", t: ["number", "string"], c: 1, f: "2026-01-01T10:00:00.000Z", l: "2026-01-01T10:00:00.000Z" },
      { n: "B", p: "", t: ["object"], c: 5000, f: "2026-01-01T09:00:00.500Z", l: "2026-01-01T09:00:00.500Z" },
      { n: "B", p: "n", t: ["number"], c: 5000, f: "2026-01-01T09:00:00.500Z", l: "2026-01-01T09:00:00.500Z" },
    ]);
  });
});
