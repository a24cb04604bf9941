import { describe, expect, it } from "vitest";
import { graphErrors, splitPath } from "./step-graph";
import type { Step } from "./step-schema";
import { localIso, nextTimeOfDay, pickZone } from "./time-zone";

const s = (steps: unknown[]) => steps as Step[];

describe("graphErrors", () => {
  it("accepts a chain, a branch and a cycle through a wait", () => {
    expect(
      graphErrors(
        s([
          { key: "w", kind: "wait", event: { name: "E" }, timeout: "1 day" },
          { key: "b", kind: "branch", rule: {}, next: "w", else_next: "x" },
          { key: "x", kind: "exit" },
        ]),
      ),
    ).toEqual([]);
  });
  it("names unknown keys, spinning cycles and unreachable steps by path", () => {
    expect(graphErrors(s([{ key: "a", kind: "update", data: {}, next: "zz" }]))).toEqual([
      { path: "steps[0].next", message: 'no step with key "zz"' },
    ]);
    expect(
      graphErrors(
        s([
          { key: "a", kind: "update", data: {} },
          {
            key: "b",
            kind: "split",
            paths: [
              { weight: 1, next: "a" },
              { weight: 1, next: "c" },
            ],
          },
          { key: "c", kind: "exit" },
        ]),
      ).map((e) => e.path),
    ).toEqual(["steps[1].paths[0].next"]);
    expect(
      graphErrors(
        s([
          { key: "a", kind: "exit" },
          { key: "b", kind: "exit" },
        ]),
      ).map((e) => e.path),
    ).toEqual(["steps[1]"]);
  });
});

describe("graphErrors with short pauses", () => {
  const loop = s([
    { key: "d", kind: "delay", duration: "1 microsecond" },
    { key: "u", kind: "update", data: { n: 1 }, next: "d" },
  ]);
  it("refuses a cycle whose only pause is shorter than the minimum", () => {
    expect(graphErrors(loop, { shortPauses: new Set(["d"]) })).toEqual([
      {
        path: "steps[1].next",
        message: 'leads back to "d" with no delay or wait of at least the minimum on the way: an entry would loop',
      },
    ]);
    expect(graphErrors(loop, { shortPauses: new Set() })).toEqual([]);
  });
  it("lets a wait's release pause but not its short timeout", () => {
    const waits = s([
      { key: "w", kind: "wait", event: { name: "E" }, timeout: "1 second", timeout_next: "u" },
      { key: "u", kind: "update", data: { n: 1 }, next: "w" },
    ]);
    expect(graphErrors(waits, { shortPauses: new Set(["w"]) }).map((e) => e.path)).toEqual(["steps[1].next"]);
    const released = s([
      { key: "w", kind: "wait", event: { name: "E" }, timeout: "1 second", timeout_next: "x" },
      { key: "u", kind: "update", data: { n: 1 }, next: "w" },
      { key: "x", kind: "exit" },
    ]);
    expect(graphErrors(released, { shortPauses: new Set(["w"]) })).toEqual([]);
  });
});

describe("splitPath", () => {
  it("is a function of the entry id, spread by weight", () => {
    const ids = Array.from({ length: 4000 }, () => crypto.randomUUID());
    for (const id of ids.slice(0, 20)) expect(splitPath(id, [1, 3])).toBe(splitPath(id, [1, 3]));
    const second = ids.filter((id) => splitPath(id, [1, 3]) === 1).length / ids.length;
    expect(second).toBeGreaterThan(0.7);
    expect(second).toBeLessThan(0.8);
  });
});

describe("time of day in a zone", () => {
  it("finds the next allowed weekday's time, across a clock change, and falls back for bad zones", () => {
    const at = nextTimeOfDay(new Date("2026-11-30T10:00:00Z"), "09:00", ["tue"], "Europe/Vienna");
    expect(localIso(at, "Europe/Vienna")).toBe("2026-12-01T09:00:00+01:00");
    // 02:30 does not exist on 2026-03-29 in Vienna: it moves forward by the gap.
    const gap = nextTimeOfDay(new Date("2026-03-29T00:30:00Z"), "02:30", undefined, "Europe/Vienna");
    expect(gap.toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(pickZone("user", () => "Mars/Olympus", "Europe/Paris")).toEqual({
      zone: "Europe/Paris",
      note: `user's zone "Mars/Olympus" is invalid; project's zone used`,
    });
    expect(pickZone("user", () => null, "Nowhere/Land").zone).toBe("UTC");
    expect(pickZone("Asia/Tokyo", () => "Europe/Paris", null)).toEqual({ zone: "Asia/Tokyo", note: null });
  });
});
