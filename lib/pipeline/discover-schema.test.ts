import { describe, expect, it } from "vitest";
import { schemaDeltaOf } from "./discover-schema";
import { walkPaths } from "./property-paths";

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
      {
        n: "A",
        p: "tags[]",
        t: ["number", "string"],
        c: 1,
        f: "2026-01-01T10:00:00.000Z",
        l: "2026-01-01T10:00:00.000Z",
      },
      { n: "B", p: "", t: ["object"], c: 5000, f: "2026-01-01T09:00:00.500Z", l: "2026-01-01T09:00:00.500Z" },
      { n: "B", p: "n", t: ["number"], c: 5000, f: "2026-01-01T09:00:00.500Z", l: "2026-01-01T09:00:00.500Z" },
    ]);
  });
});

/** The delta as walkPaths (the reference walk) describes it: the trie in schemaDeltaOf must agree. */
function referenceDelta(samples: { name: string; data: Record<string, unknown>; receivedAt: string }[]) {
  const out = new Map<string, { n: string; p: string; t: Set<string>; c: number }>();
  for (const e of samples) {
    const seen = new Set<string>();
    const add = (p: string, type: string) => {
      const k = `${e.name}\0${p}`;
      const a = out.get(k) ?? { n: e.name, p, t: new Set<string>(), c: 0 };
      out.set(k, a);
      a.t.add(type);
      if (!seen.has(p)) seen.add(p), a.c++;
    };
    add("", "object");
    walkPaths(e.data, add);
  }
  return [...out.values()]
    .map((a) => ({ n: a.n, p: a.p, t: [...a.t].sort(), c: a.c }))
    .sort((a, b) => (a.n === b.n ? (a.p < b.p ? -1 : 1) : a.n < b.n ? -1 : 1));
}

describe("schemaDeltaOf against walkPaths", () => {
  it("agrees on paths, types and counts, including keys that spell another path, empty keys and deep nesting", () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 25; i++) deep = { d: deep, arr: [deep] };
    const samples = [
      { name: "A", data: { "a.b": 1, a: { b: "x", c: [1, { b: null }] }, "": { x: true, "": 2 }, "[]": 3 } },
      { name: "A", data: { a: { b: "2026-01-02" }, list: [[1, [2]], { k: "v" }], "a.b": "2026-01-02T03:04:05Z" } },
      { name: "B", data: deep },
      { name: "A", data: {} },
      { name: "B", data: { d: "not an object", "1999-12-31": "1999-12-31 10:00" } },
    ].map((s) => ({ ...s, receivedAt: "2026-01-01 10:00:00+00" }));
    const got = schemaDeltaOf(samples).map(({ n, p, t, c }) => ({ n, p, t, c }));
    expect(got.length).toBeGreaterThan(40);
    expect(got).toEqual(referenceDelta(samples));
  });
});
