import { describe, expect, it } from "vitest";
import type { Step } from "./step-schema";
import { type EntryInHand, type WalkEffects, walkEntry } from "./walk";
import { walkAlike, walkForAll } from "./walk-alike";
import { walkOf } from "./write-moves";

const now = new Date("2026-11-28T12:00:00Z");
const wakeAt = new Date("2026-11-28T11:59:59Z");

function entry(n: number, over: Partial<EntryInHand> = {}): EntryInHand {
  return {
    projectId: "p",
    id: `00000000-0000-7000-8000-${String(n).padStart(12, "0")}`,
    journeyId: "j",
    journeyName: "J",
    userId: `u${n}`,
    eventId: `e${n}`,
    context: { event: { cart_id: `c${n}` } },
    stepKey: "d",
    state: "waiting",
    stepSince: new Date(Date.UTC(2026, 10, 27, 0, 0, n)),
    wakeAt,
    waitingFor: { kind: "delay", duration: "1 day" },
    userZone: null,
    projectZone: "Europe/Vienna",
    ...over,
  };
}

/** Effects that record who they were asked about: a rule that holds for even users. */
function effects(calls: string[]): WalkEffects {
  return {
    async ruleHolds(e) {
      calls.push(`rule ${e.userId}`);
      return Number(e.userId.slice(1)) % 2 === 0;
    },
    async inList(e) {
      calls.push(`list ${e.userId}`);
      return false;
    },
    async mergeData(e) {
      calls.push(`merge ${e.userId}`);
      return ["data.x"];
    },
    async send(e) {
      calls.push(`send ${e.userId}`);
      return { outcome: "sent message m" };
    },
    async messageOutcome() {
      return null;
    },
  };
}

async function alone(fx: WalkEffects, entries: EntryInHand[], steps: Step[]) {
  const out = [];
  for (const e of entries) out.push(await walkEntry(fx, e, steps, now));
  return out;
}

describe("walkAlike", () => {
  const entries = [1, 2, 3, 4].map((n) => entry(n));

  it("walks an ended delay and its exit once for every entry standing there", async () => {
    const steps: Step[] = [
      { key: "d", kind: "delay", duration: "1 day" },
      { key: "bye", kind: "exit" },
    ];
    const moves = await walkAlike(effects([]), entries, steps, now);
    expect(moves.map((m) => m.entry.id)).toEqual(entries.map((e) => e.id));
    expect(new Set(moves.map(walkOf)).size).toBe(1);
    const shared = walkOf(moves[0]!);
    expect(shared.path.map((p) => p.outcome)).toEqual([
      "delayed until 2026-11-28T12:59:59+01:00 (Europe/Vienna)",
      "exit",
    ]);
    expect(shared.end.state).toBe("exited");
    // What each entry would have walked alone, but for the first row's start, which is each one's own.
    const own = await alone(effects([]), entries, steps);
    for (const w of own) {
      expect(w.path.slice(1)).toEqual(shared.path.slice(1));
      expect(w.end).toEqual(shared.end);
    }
  });

  it("walks each entry on its own once the walk reads something of the entry's (a keyed wait, a split)", async () => {
    for (const next of [
      { key: "w", kind: "wait", event: { name: "Order Completed", same_as: "cart_id" } },
      {
        key: "s",
        kind: "split",
        paths: [
          { weight: 50, next: "bye" },
          { weight: 50, next: "bye" },
        ],
      },
    ] as Step[]) {
      const steps: Step[] = [{ key: "d", kind: "delay", duration: "1 day" }, next, { key: "bye", kind: "exit" }];
      const moves = await walkAlike(effects([]), entries, steps, now);
      expect(moves.every((m) => !("sameAs" in m))).toBe(true);
      const own = await alone(effects([]), entries, steps);
      expect(moves.map((m) => ({ path: walkOf(m).path, end: walkOf(m).end }))).toEqual(own);
    }
    const waits = await walkAlike(
      effects([]),
      entries,
      [
        { key: "d", kind: "delay", duration: "1 day" },
        { key: "w", kind: "wait", event: { name: "Order Completed", same_as: "cart_id" } },
      ],
      now,
    );
    expect(waits.map((m) => walkOf(m).end.waitKey)).toEqual(
      entries.map((e) => `${e.userId}|cart_id="c${e.userId.slice(1)}"`),
    );
  });

  it("runs a step's effect for every entry, each for its own user", async () => {
    const calls: string[] = [];
    const steps: Step[] = [
      { key: "d", kind: "delay", duration: "1 day" },
      { key: "b", kind: "branch", rule: { type: "wrapper", operator: "and", rules: [] } as never, else_next: "bye" },
      { key: "up", kind: "update", data: { x: 1 } },
      { key: "bye", kind: "exit" },
    ];
    const moves = await walkAlike(effects(calls), entries, steps, now);
    expect(calls).toEqual(["rule u1", "rule u2", "merge u2", "rule u3", "rule u4", "merge u4"]);
    expect(moves.map((m) => walkOf(m).path.map((p) => p.stepKey))).toEqual([
      ["d", "b", "bye"],
      ["d", "b", "up", "bye"],
      ["d", "b", "bye"],
      ["d", "b", "up", "bye"],
    ]);
  });
});

describe("walkForAll", () => {
  const delayThen = (...after: Step[]): Step[] => [{ key: "d", kind: "delay", duration: "1 day" }, ...after];

  it("gives the walk of an ended delay and its exit, as the entry would walk alone", async () => {
    const e = entry(7);
    const steps = delayThen({ key: "bye", kind: "exit" });
    const walk = await walkForAll(e, steps, now);
    expect(walk).not.toBeNull();
    expect(walk!.entry).toBe(e);
    expect({ path: walk!.path, end: walk!.end }).toEqual(await walkEntry(effects([]), e, steps, now));
  });

  it("gives a delay until a time in a named zone, which reads no user's zone", async () => {
    const walk = await walkForAll(
      entry(1),
      delayThen({ key: "t", kind: "delay", until: { time: "09:00", timezone: "Asia/Tokyo" } }),
      now,
    );
    expect(walk!.end).toMatchObject({ stepKey: "t", state: "waiting", wakeAt: new Date("2026-11-29T00:00:00Z") });
  });

  it("gives a delay after a delay: the next wait, the same for everyone", async () => {
    const walk = await walkForAll(entry(1), delayThen({ key: "d2", kind: "delay", duration: "2 hours" }), now);
    expect(walk!.end).toMatchObject({ stepKey: "d2", state: "waiting", wakeAfter: "2 hours" });
  });

  it("gives nothing, and runs no effect, once the walk would read the entry's own or reach an effect", async () => {
    for (const next of [
      { key: "w", kind: "wait", event: { name: "Order Completed", same_as: "cart_id" } },
      { key: "w", kind: "wait", event: { name: "Order Completed" } },
      {
        key: "s",
        kind: "split",
        paths: [
          { weight: 50, next: "bye" },
          { weight: 50, next: "bye" },
        ],
      },
      { key: "b", kind: "branch", rule: { type: "wrapper", operator: "and", rules: [] } as never, else_next: "bye" },
      { key: "up", kind: "update", data: { x: 1 } },
      { key: "t", kind: "delay", until: { time: "09:00", timezone: "user" } },
    ] as Step[])
      expect(await walkForAll(entry(1), delayThen(next, { key: "bye", kind: "exit" }), now), next.key).toBeNull();
  });
});
