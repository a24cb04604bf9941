import { describe, expect, it } from "vitest";
import { matchesCondition } from "./match-condition";

describe("matchesCondition", () => {
  const data = { amount: 120, plan: "pro", address: { city: "Paris" }, tags: ["a", "b"] };
  it("compares numbers and strings of the same type only", () => {
    expect(matchesCondition(data, { path: "amount", op: "gte", value: 100 })).toBe(true);
    expect(matchesCondition(data, { path: "amount", op: "lt", value: 100 })).toBe(false);
    expect(matchesCondition(data, { path: "amount", op: "gt", value: "100" })).toBe(false);
  });
  it("reads nested paths, with or without a leading data.", () => {
    expect(matchesCondition(data, { path: "address.city", op: "eq", value: "Paris" })).toBe(true);
    expect(matchesCondition(data, { path: "data.address.city", op: "neq", value: "Paris" })).toBe(false);
  });
  it("supports exists and containment", () => {
    expect(matchesCondition(data, { path: "missing", op: "not_exists" })).toBe(true);
    expect(matchesCondition(data, { path: "tags", op: "contains", value: ["b"] })).toBe(true);
    expect(matchesCondition(data, { path: "plan", op: "exists" })).toBe(true);
  });
});
