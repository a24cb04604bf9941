import { describe, expect, it } from "vitest";
import type { Step } from "./step-schema";
import { type EntryInHand, walkEntry, type WalkEffects } from "./walk";

const entry: EntryInHand = {
  projectId: crypto.randomUUID(),
  id: crypto.randomUUID(),
  journeyId: crypto.randomUUID(),
  journeyName: "Loop",
  userId: crypto.randomUUID(),
  eventId: crypto.randomUUID(),
  context: {},
  stepKey: "u",
  state: "active",
  stepSince: new Date(),
  wakeAt: null,
  waitingFor: null,
  userZone: null,
  projectZone: null,
};

const fx: WalkEffects = {
  ruleHolds: async () => true,
  inList: async () => false,
  mergeData: async () => [],
  send: async () => ({ outcome: "sent" }),
  messageOutcome: async () => null,
};

describe("walkEntry", () => {
  it("exits an entry past the hop limit of one walk and says why in its path", async () => {
    // A spinning cycle the checks refuse today, as steps saved before them may still hold.
    const steps = [
      { key: "u", kind: "update", data: { n: 1 } },
      { key: "b", kind: "branch", rule: {}, next: "u", else_next: null },
    ] as unknown as Step[];
    const { path, end } = await walkEntry(fx, entry, steps, new Date());
    expect(end.state).toBe("exited");
    expect(path.length).toBeLessThanOrEqual(102);
    expect(path.at(-1)).toMatchObject({
      outcome: "exited: more than 101 steps in one pass (a loop with no pause of at least the minimum)",
    });
  });

  it("takes a split's drawn path, or its test's winner once the claim gave it one, and records which", async () => {
    const split = {
      key: "u",
      kind: "split",
      paths: [
        { weight: 1, next: "a" },
        { weight: 1, next: "b" },
      ],
    };
    const steps = (extra: object) =>
      [
        { ...split, ...extra },
        { key: "a", kind: "exit" },
        { key: "b", kind: "exit" },
      ] as unknown as Step[];
    const drawn = await walkEntry(fx, entry, steps({}), new Date());
    const n = drawn.path[0]!.splitPath!;
    expect(drawn.path[0]!.outcome).toBe(`split: path ${n + 1}`);
    const won = await walkEntry(fx, entry, steps({ winner: 1 - n }), new Date());
    expect(won.path.map((r) => [r.stepKey, r.outcome, r.splitPath])).toEqual([
      ["u", `split: path ${2 - n} (the test's winner)`, 1 - n],
      [n === 0 ? "b" : "a", "exit", undefined],
    ]);
  });
});
