import { describe, expect, it } from "vitest";
import { annotateRule } from "./explained-rule";
import { rule } from "./rule-schema";
import { observeCondition } from "@/lib/journeys/match-condition";

describe("annotateRule", () => {
  const r = rule.parse({
    any: [
      { property: { path: "data.seats", op: "gt", value: 5 } },
      { event: { name: "Paid", at_least: 2, where: [{ path: "amount", op: "gte", value: 10 }] } },
    ],
  });

  it("puts each reading on its node, by compileRule's paths", () => {
    const x = annotateRule(
      r,
      new Map([
        ["$.any[0]", { path: "$.any[0]", result: false, observed: { value: "10" } }],
        [
          "$.any[1]",
          {
            path: "$.any[1]",
            result: true,
            observed: {
              found: 2,
              found_ignoring_where: 2,
              window_from: null,
              window_to: null,
              samples: [
                {
                  id: "0190c1d2-0000-7000-8000-000000000001",
                  occurred_at: "2026-01-02 03:04:05+00",
                  organization_id: null,
                  clauses: [{ value: null, passed: false }],
                },
              ],
            },
          },
        ],
        ["$", { path: "$", result: true, observed: null, matches: true }],
      ]),
    );
    expect(x.tree).toMatchObject({ kind: "any", result: true });
    const [prop, ev] = (x.tree as { children: any[] }).children;
    expect(prop).toMatchObject({
      result: false,
      observed: { value: "10", missing: false, type: "string", comparison: "data.seats gt 5" },
    });
    expect(ev.observed).toMatchObject({ found: 2, needed: 2, window_from: null });
    expect(ev.observed.samples[0]).toMatchObject({
      occurred_at: "2026-01-02T03:04:05.000Z",
      counted: false,
      where: [{ path: "amount", seen: null, missing: true, passed: false }],
    });
  });

  it("reads a node it has no reading for as failed, with nothing observed", () => {
    const x = annotateRule(r, new Map());
    expect(x.tree.result).toBe(false);
    expect((x.tree as { children: any[] }).children[0].observed).toMatchObject({ missing: true, type: "missing" });
  });
});

describe("observeCondition", () => {
  it("says what the condition saw beside the verdict matchesCondition gives", () => {
    expect(observeCondition({ plan: "free" }, { path: "plan", op: "eq", value: "pro" })).toEqual({
      seen: "free",
      missing: false,
      passed: false,
    });
    expect(observeCondition({}, { path: "a.b", op: "not_exists" })).toEqual({
      seen: null,
      missing: true,
      passed: true,
    });
    expect(observeCondition({ n: "3" }, { path: "n", op: "gt", value: 2 })).toMatchObject({ seen: "3", passed: false });
  });
});
