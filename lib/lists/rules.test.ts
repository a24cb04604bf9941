import { describe, expect, it } from "vitest";
import { rule, ruleFacts } from "./rules";

describe("list rules", () => {
  it("parses a nested tree with defaults and collects the names it listens to", () => {
    const r = rule.parse({
      all: [
        { event: { name: "Purchased", within_days: 30, where: [{ path: "data.amount", op: "gte", value: 10 }] } },
        {
          any: [
            { property: { path: "data.plan", op: "eq", value: "pro" } },
            { event: { name: "Renewed", scope: "organization" } },
          ],
        },
      ],
    });
    expect(r).toMatchObject({ all: [{ event: { name: "Purchased", scope: "user", at_least: 1 } }, {}] });
    expect(ruleFacts(r)).toEqual({
      eventNames: [
        "Purchased",
        "Renewed",
        "organization.user.added",
        "organization.user.removed",
        "user.created",
        "user.updated",
      ],
      windowed: true,
    });
  });

  it("reports the path of a bad leaf deep in the tree", () => {
    const res = rule.safeParse({ any: [{ event: { name: "A" } }, { event: { name: "B", at_least: 0 } }] });
    expect(res.success).toBe(false);
    expect(res.error!.issues.map((i) => i.path.join("."))).toContain("any.1.event.at_least");
  });

  it("refuses unknown properties, empty groups and a comparison without a value", () => {
    expect(rule.safeParse({ property: { path: "password", op: "eq", value: 1 } }).success).toBe(false);
    expect(rule.safeParse({ all: [] }).success).toBe(false);
    expect(rule.safeParse({ event: { name: "A", where: [{ path: "x", op: "gt" }] } }).success).toBe(false);
    expect(rule.safeParse({ event: { name: "A", where: [{ path: "x", op: "exists" }] } }).success).toBe(true);
  });
});
