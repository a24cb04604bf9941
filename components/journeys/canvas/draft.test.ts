import { describe, expect, it } from "vitest";
import { graphErrors } from "@/lib/journeys/step-graph";
import type { Step } from "@/lib/journeys/step-schema";
import { errorsByStep, fromApi, newStep, removeStep, renameKey, toApi, withTarget } from "./draft";

const steps: Step[] = [
  { key: "wait-a-day", kind: "delay", duration: "1 day" },
  { key: "pro", kind: "branch", rule: { property: { path: "data.plan", op: "eq", value: "pro" } }, else_next: "bye" },
  { key: "mark", kind: "update", data: { vip: true } },
  { key: "bye", kind: "exit" },
];

describe("the canvas's draft", () => {
  it("spells out every default next, and gives the API back steps that lead the same way", () => {
    const draft = fromApi(steps);
    expect(draft.map((d) => (d.step as { next?: string }).next)).toEqual(["pro", "mark", "bye", undefined]);
    const back = toApi(draft);
    expect(back).toHaveLength(4);
    expect(graphErrors(back)).toEqual([]);
  });

  it("points an open way out of a step that is not last at an exit step, adding `end` when there is none", () => {
    const draft = fromApi([
      { key: "a", kind: "delay", duration: "1 hour" },
      {
        key: "b",
        kind: "split",
        paths: [
          { weight: 1, next: "a" },
          { weight: 1, next: "a" },
        ],
      },
    ]);
    draft[0]!.step = withTarget(draft[0]!.step, "next", "b");
    draft[1]!.step = withTarget(draft[1]!.step, "paths[1].next", undefined);
    const first = withTarget(draft[0]!.step, "next", undefined);
    const out = toApi([{ ...draft[0]!, step: first }, draft[1]!]);
    expect(out.map((s) => s.key)).toEqual(["a", "b", "end"]);
    expect((out[0] as { next?: string }).next).toBe("end");
    expect(out[1]!.kind === "split" && out[1]!.paths[1]!.next).toBe("end");
  });

  it("renames a key with its arrows, and cuts the arrows to a removed step", () => {
    const renamed = renameKey(fromApi(steps), "bye", "done");
    expect(renamed[3]!.step.key).toBe("done");
    expect(renamed[1]!.step.kind === "branch" && renamed[1]!.step.else_next).toBe("done");
    const removed = removeStep(renamed, renamed[2]!.uid);
    expect((removed[1]!.step as { next?: string }).next).toBeUndefined();
  });

  it("puts the API's refusals on the step they name, keeping the field for the panel", () => {
    const draft = fromApi(steps);
    const { byUid, other } = errorsByStep(draft, [
      { path: "steps[2].data", message: "bad" },
      { path: "steps[9]", message: "beyond" },
      { path: "name", message: "elsewhere" },
    ]);
    expect(byUid.get(draft[2]!.uid)).toEqual([{ field: "data", message: "bad" }]);
    expect(other).toEqual(["steps[9]: beyond", "name: elsewhere"]);
  });

  it("new steps take a free key", () => {
    expect(newStep("delay", [{ key: "delay" }, { key: "delay-2" }]).key).toBe("delay-3");
  });
});
