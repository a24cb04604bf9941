import type { Step, StepKind } from "@/lib/journeys/step-schema";

/*
 * The canvas's model of a journey's steps: the API's array, with every `next` explicit. The API lets
 * `next` default to the following step in the array, which is invisible on a canvas (moving a box would
 * change where it leads), so the draft spells each one out, and an absent `next` means "the entry exits".
 * `toApi` turns that back into steps the API reads the same way: a step that exits but is not last
 * points at an exit step (the journey's own, or one added at the end). The JSON view shows `toApi`'s
 * answer, and reading JSON goes through `fromApi`: one state, two views. No React here.
 */

/** A step and a stable id for its box (keys change when renamed; the box must not). */
export interface DraftStep {
  uid: string;
  step: Step;
}

let counter = 0;
const uid = () => `s${++counter}`;

/** Kinds whose `next` defaults to the following step. */
const HAS_NEXT = new Set<StepKind>(["delay", "wait", "branch", "send", "update"]);

export function fromApi(steps: Step[]): DraftStep[] {
  return steps.map((s, i) => {
    const step = structuredClone(s) as Step & { next?: string };
    if (HAS_NEXT.has(s.kind) && step.next === undefined && steps[i + 1]) step.next = steps[i + 1]!.key;
    return { uid: uid(), step };
  });
}

/**
 * The steps to save. Exits that must name a step (a `next` of a step that is not last, a split's path) and
 * name none point at an exit step: the journey's first one, or `end` (a free key) added at the end.
 */
export function toApi(draft: DraftStep[]): Step[] {
  const steps = draft.map((d) => structuredClone(d.step));
  let exitKey = steps.find((s) => s.kind === "exit")?.key;
  const exitFor = () => {
    if (exitKey) return exitKey;
    exitKey = freeKey(steps, "end");
    return exitKey;
  };
  const last = steps.length - 1;
  steps.forEach((s, i) => {
    const open = s as Step & { next?: string };
    if (HAS_NEXT.has(s.kind) && !open.next && i < last) open.next = exitFor();
    if (s.kind === "split") for (const p of s.paths) if (!p.next) p.next = exitFor();
  });
  if (exitKey && !steps.some((s) => s.key === exitKey)) steps.push({ key: exitKey, kind: "exit" });
  return steps;
}

/** `base`, or `base-2`, `base-3`…: a key no step has. */
export function freeKey(steps: Pick<Step, "key">[], base: string): string {
  const taken = new Set(steps.map((s) => s.key));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** A new step of a kind, with the least that makes it valid (a send still needs its template). */
export function newStep(kind: StepKind, steps: Pick<Step, "key">[]): Step {
  const key = freeKey(steps, kind);
  switch (kind) {
    case "delay":
      return { key, kind, duration: "1 day" };
    case "wait":
      return { key, kind, event: { name: "" }, timeout: "3 days" };
    case "branch":
      return { key, kind, rule: { all: [] } } as Step;
    case "split":
      return {
        key,
        kind,
        paths: [
          { weight: 50, next: "" },
          { weight: 50, next: "" },
        ],
      };
    case "send":
      return { key, kind, template_id: "" } as Step;
    case "update":
      return { key, kind, data: {} };
    default:
      return { key, kind: "exit" };
  }
}

/** The fields that hold a step's ways out, as the canvas names its handles (the API's paths: step-graph.ts). */
export function exitFields(s: Step): { field: string; label: string }[] {
  switch (s.kind) {
    case "exit":
      return [];
    case "split":
      return s.paths.map((p, j) => ({ field: `paths[${j}].next`, label: `${p.weight}` }));
    case "branch":
      return [
        { field: "next", label: "true" },
        { field: "else_next", label: "false" },
      ];
    case "wait":
      return [
        { field: "next", label: "released" },
        ...(s.timeout ? [{ field: "timeout_next", label: "timed out" }] : []),
      ];
    default:
      return [{ field: "next", label: "" }];
  }
}

export function targetOf(s: Step, field: string): string | undefined {
  const path = /^paths\[(\d+)\]\.next$/.exec(field);
  if (path) return s.kind === "split" ? s.paths[Number(path[1])]?.next || undefined : undefined;
  return ((s as unknown as Record<string, unknown>)[field] as string | undefined) || undefined;
}

/** The step with one of its ways out set to `to` (undefined: the entry exits there). */
export function withTarget(s: Step, field: string, to: string | undefined): Step {
  const copy = structuredClone(s) as Step & Record<string, unknown>;
  const path = /^paths\[(\d+)\]\.next$/.exec(field);
  if (path && copy.kind === "split") copy.paths[Number(path[1])]!.next = to ?? "";
  else if (to === undefined) delete copy[field];
  else copy[field] = to;
  return copy;
}

/** Every step with references to `from` renamed to `to` (a renamed key keeps its arrows). */
export function renameKey(draft: DraftStep[], from: string, to: string): DraftStep[] {
  return draft.map((d) => {
    let step = d.step.key === from ? { ...d.step, key: to } : d.step;
    for (const { field } of exitFields(step)) if (targetOf(step, field) === from) step = withTarget(step, field, to);
    return step === d.step ? d : { ...d, step };
  });
}

/** The draft without one step; arrows to it are cut (those entries would exit). */
export function removeStep(draft: DraftStep[], uidToRemove: string): DraftStep[] {
  const gone = draft.find((d) => d.uid === uidToRemove)?.step.key;
  return draft
    .filter((d) => d.uid !== uidToRemove)
    .map((d) => {
      let step = d.step;
      for (const { field } of exitFields(step))
        if (targetOf(step, field) === gone) step = withTarget(step, field, undefined);
      return step === d.step ? d : { ...d, step };
    });
}

/**
 * The API's refusals (`steps[3].next: no step…`) by the step they name. Indices are those of `toApi`'s
 * array, whose first `draft.length` entries are the draft's steps in order; the rest of the path is kept
 * for the panel's field.
 */
export function errorsByStep(
  draft: DraftStep[],
  errors: { path: string; message: string }[],
): { byUid: Map<string, { field: string; message: string }[]>; other: string[] } {
  const byUid = new Map<string, { field: string; message: string }[]>();
  const other: string[] = [];
  for (const e of errors) {
    const m = /^steps\[(\d+)\]\.?(.*)$/.exec(e.path);
    const d = m ? draft[Number(m[1])] : undefined;
    if (!d) {
      other.push(e.path ? `${e.path}: ${e.message}` : e.message);
      continue;
    }
    byUid.set(d.uid, [...(byUid.get(d.uid) ?? []), { field: m![2]!, message: e.message }]);
  }
  return { byUid, other };
}
