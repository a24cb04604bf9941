import type { Step } from "./step-schema";

/*
 * The shape of a step list: where each step leads. The engine, the validation and the console's canvas
 * read it here, so "next defaults to the next step in the array" has one home. No database here.
 */

/** One way out of a step: the field that names it (for error paths and the canvas's edge labels) and the key, or null for "the entry exits". */
export interface Exit {
  field: string;
  label: string;
  to: string | null;
}

/** The step after `steps[i]` by array order: the default of `next`. */
function following(steps: Step[], i: number): string | null {
  return steps[i + 1]?.key ?? null;
}

/** Every way out of `steps[i]`. */
export function exitsOf(steps: Step[], i: number): Exit[] {
  const s = steps[i]!;
  const next = (s as { next?: string }).next ?? following(steps, i);
  switch (s.kind) {
    case "exit":
      return [];
    case "split":
      return s.paths.map((p, j) => ({ field: `paths[${j}].next`, label: `path ${j + 1} (${p.weight})`, to: p.next }));
    case "branch":
      return [
        { field: "next", label: "true", to: next },
        { field: "else_next", label: "false", to: s.else_next ?? null },
      ];
    case "wait":
      return [
        { field: "next", label: "released", to: next },
        ...(s.timeout ? [{ field: "timeout_next", label: "timed out", to: s.timeout_next ?? null }] : []),
      ];
    default:
      return [{ field: "next", label: "", to: next }];
  }
}

/** The `next` of a step (the default one when it has several ways out): where a removed step's entries go. */
export function nextOf(steps: Step[], key: string): string | null {
  const i = steps.findIndex((s) => s.key === key);
  if (i < 0) return null;
  return exitsOf(steps, i)[0]?.to ?? null;
}

/**
 * Whether leaving `steps[i]` by `exit` means the entry stopped there for a while first, so a cycle through
 * it cannot spin. A delay pauses unless it is short (`shortPauses`, decided by check-steps.ts against the
 * minimum: `1 microsecond` is a delay in name only); a wait's release needs a new event or membership
 * change, but its timeout leg pauses only when the timeout is not short.
 */
function pauses(steps: Step[], i: number, exit: Exit, shortPauses: ReadonlySet<string>): boolean {
  const s = steps[i]!;
  if (s.kind === "delay") return !shortPauses.has(s.key);
  if (s.kind === "wait") return exit.field !== "timeout_next" || !shortPauses.has(s.key);
  return false;
}

/**
 * What is wrong with the list's shape, each by path: duplicate keys, a next naming no step, a cycle
 * with no delay or wait of at least the minimum in it (`shortPauses`: the keys of delays and waits whose
 * duration or timeout is shorter), a step no entry can reach from the first.
 */
export function graphErrors(
  steps: Step[],
  { shortPauses = new Set<string>() }: { shortPauses?: ReadonlySet<string> } = {},
): { path: string; message: string }[] {
  const errors: { path: string; message: string }[] = [];
  const index = new Map<string, number>();
  steps.forEach((s, i) => {
    if (index.has(s.key)) errors.push({ path: `steps[${i}].key`, message: `duplicate key "${s.key}"` });
    else index.set(s.key, i);
  });
  steps.forEach((_s, i) => {
    for (const e of exitsOf(steps, i))
      if (e.to !== null && !index.has(e.to))
        errors.push({ path: `steps[${i}].${e.field}`, message: `no step with key "${e.to}"` });
  });
  if (errors.length) return errors;
  // A cycle of ways out that never pause: depth-first search over those edges only.
  const color = new Map<number, "grey" | "black">();
  const visit = (i: number): { path: string; message: string } | null => {
    color.set(i, "grey");
    for (const e of exitsOf(steps, i)) {
      if (e.to === null || pauses(steps, i, e, shortPauses)) continue;
      const j = index.get(e.to)!;
      if (color.get(j) === "grey")
        return {
          path: `steps[${i}].${e.field}`,
          message: `leads back to "${e.to}" with no delay or wait of at least the minimum on the way: an entry would loop`,
        };
      if (!color.has(j)) {
        const found = visit(j);
        if (found) return found;
      }
    }
    color.set(i, "black");
    return null;
  };
  for (let i = 0; i < steps.length; i++) {
    if (color.has(i)) continue;
    const found = visit(i);
    if (found) {
      errors.push(found);
      break;
    }
  }
  if (steps.length) {
    const seen = new Set<number>([0]);
    const queue = [0];
    while (queue.length) {
      const i = queue.pop()!;
      for (const e of exitsOf(steps, i)) {
        const j = e.to === null ? undefined : index.get(e.to);
        if (j !== undefined && !seen.has(j)) {
          seen.add(j);
          queue.push(j);
        }
      }
    }
    steps.forEach((s, i) => {
      if (!seen.has(i))
        errors.push({ path: `steps[${i}]`, message: `no entry can reach "${s.key}" from the first step` });
    });
  }
  return errors;
}

/** A split's path for an entry: a function of the entry id alone (FNV-1a), so a retried claim takes the same one. */
export function splitPath(entryId: string, weights: number[]): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < entryId.length; i++) {
    h ^= entryId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const total = weights.reduce((a, b) => a + b, 0);
  let point = h % total;
  for (let i = 0; i < weights.length; i++) {
    point -= weights[i]!;
    if (point < 0) return i;
  }
  return weights.length - 1;
}
