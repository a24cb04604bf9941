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
});
