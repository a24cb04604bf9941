import { describe, expect, it } from "vitest";
import { findShapeViolation, nestingDepth } from "./json-shape";
import { rule } from "@/lib/lists/rules";

const enc = (s: string) => new TextEncoder().encode(s);

describe("nestingDepth", () => {
  it("counts bracket nesting outside strings", () => {
    expect(nestingDepth(enc('{"a":[1,{"b":2}]}'))).toBe(3);
    expect(nestingDepth(enc('{"a":"[[[[\\"[[["}'))).toBe(1);
    expect(nestingDepth(enc("1"))).toBe(0);
  });

  it("answers a megabyte of brackets at once, stopping early", () => {
    const bytes = enc("[".repeat(1 << 20));
    // Against one plain pass over the same megabyte in the same run (a ratio, not a clock): stopping at the
    // limit must not cost more than reading everything would.
    let started = performance.now();
    let brackets = 0;
    for (const b of bytes) if (b === 0x5b) brackets++;
    const fullScan = performance.now() - started;
    expect(brackets).toBe(1 << 20);
    started = performance.now();
    expect(nestingDepth(bytes)).toBeGreaterThan(64);
    expect(performance.now() - started).toBeLessThan(fullScan * 2 + 50);
  });
});

describe("findShapeViolation", () => {
  it("reports the path where nesting passes the limit", () => {
    expect(findShapeViolation({ a: { b: { c: 1 } } }, { maxDepth: 2 })).toEqual({
      path: ["a", "b"],
      message: "nested deeper than 2 levels",
    });
    expect(findShapeViolation({ a: { b: 1 } }, { maxDepth: 2 })).toBeNull();
    expect(findShapeViolation([1, 2, 3], { maxDepth: 5, maxNodes: 3 })).toEqual({
      path: [2],
      message: "more than 3 nodes",
    });
  });
});

describe("list rules are bounded before the recursive schema", () => {
  const leaf = { property: { path: "email", op: "exists" } };
  const nest = (levels: number): unknown => (levels === 0 ? leaf : { all: [nest(levels - 1)] });

  it("accepts 10 levels and refuses 11 with the path", () => {
    expect(rule.safeParse(nest(10)).success).toBe(true);
    const r = rule.safeParse(nest(11));
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(Array.from({ length: 10 }, () => ["all", 0]).flat());
    expect(r.error!.issues[0]!.message).toContain("at most 10 levels");
  });

  it("refuses 2,000 levels with a 400-style issue, not a stack overflow", () => {
    const r = rule.safeParse(nest(2000));
    expect(r.success).toBe(false);
  });

  it("refuses more than 200 rules", () => {
    expect(rule.safeParse({ any: Array.from({ length: 39 }, () => ({ all: [leaf, leaf, leaf, leaf] })) }).success).toBe(
      true,
    );
    const r = rule.safeParse({ any: Array.from({ length: 40 }, () => ({ all: [leaf, leaf, leaf, leaf] })) });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toContain("more than 200 rules");
  });
});
