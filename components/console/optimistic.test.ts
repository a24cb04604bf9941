import { describe, expect, it } from "vitest";
import { patchRows } from "./optimistic";

type R = { id: string; state: string };
const pause = (old: unknown) =>
  patchRows<R>(
    old,
    (r) => r.id === "b",
    (r) => ({ ...r, state: "paused" }),
  );

describe("patchRows (the optimistic rewrite of cached pages)", () => {
  it("rewrites only the matching row of a page, leaving the input untouched for the rollback snapshot", () => {
    const page = {
      data: [
        { id: "a", state: "active" },
        { id: "b", state: "active" },
      ],
      next_cursor: "x",
    };
    expect(pause(page)).toEqual({
      data: [
        { id: "a", state: "active" },
        { id: "b", state: "paused" },
      ],
      next_cursor: "x",
    });
    expect(page.data[1]!.state).toBe("active");
  });
  it("reaches rows inside infinite-query pages and a profile's schedules", () => {
    const infinite = {
      pages: [{ data: [{ id: "a", state: "active" }] }, { data: [{ id: "b", state: "active" }] }],
      pageParams: [null, "c"],
    };
    expect(pause(infinite)).toEqual({
      pages: [{ data: [{ id: "a", state: "active" }] }, { data: [{ id: "b", state: "paused" }] }],
      pageParams: [null, "c"],
    });
    const profile = { id: "u", schedules: [{ id: "b", state: "active" }] };
    expect(pause(profile)).toEqual({ id: "u", schedules: [{ id: "b", state: "paused" }] });
  });
  it("passes through what it does not know", () => {
    expect(pause(undefined)).toBeUndefined();
    expect(pause(3)).toBe(3);
    expect(pause({ other: [{ id: "b", state: "active" }] })).toEqual({ other: [{ id: "b", state: "active" }] });
  });
});
