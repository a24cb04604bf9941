import { exitsOf, splitPath } from "./step-graph";
import type { SplitInHand, Step } from "./step-schema";
import { isTimeZone, localIso, nextTimeOfDay, pickZone } from "./time-zone";

/** An entry as the engine holds it while moving it (a claimed row, or one an event released). */
export interface EntryInHand {
  projectId: string;
  id: string;
  journeyId: string;
  journeyName: string;
  userId: string;
  /** The event that made the entry (`journey.user.exited` names it). */
  eventId: string;
  context: Record<string, unknown>;
  stepKey: string | null;
  state: "active" | "waiting" | "exited";
  stepSince: Date;
  wakeAt: Date | null;
  waitingFor: Record<string, unknown> | null;
  userZone: string | null;
  projectZone: string | null;
}

/** A step passed: one row of the entry's path. */
export interface PathRow {
  stepKey: string;
  kind: string;
  enteredAt: Date;
  leftAt: Date;
  outcome: string;
  /** A split's path taken (0-based). */
  splitPath?: number;
}

/** Where the entry stands after the walk. `wakeAfter`: an interval added to the database's now (delays, timeouts). */
export interface EntryEnd {
  stepKey: string | null;
  state: "active" | "waiting" | "exited";
  stepSince: Date;
  wakeAt: Date | null;
  wakeAfter: string | null;
  waitingFor: Record<string, unknown> | null;
  waitEvent: string | null;
  waitKey: string | null;
}

/** What a walk needs from the database, inside the claim's transaction. */
export interface WalkEffects {
  ruleHolds(entry: EntryInHand, rule: unknown): Promise<boolean>;
  inList(entry: EntryInHand, listId: string): Promise<boolean>;
  /** Merges data into the user's data; the keys that changed. */
  mergeData(entry: EntryInHand, data: Record<string, unknown>): Promise<string[]>;
  /** Queues the step's message (keyed by entry and step): a final outcome, or the message id to wait for. */
  send(entry: EntryInHand, step: Step & { kind: "send" }): Promise<{ outcome: string } | { waitFor: string }>;
  /** The outcome of the message a woken send step waited for, or null while it is not final. */
  messageOutcome(entry: EntryInHand, messageId: string): Promise<string | null>;
}

/** The match key of an awaited event: the user, and with `same_as` the key and the value it must have. */
export function waitKey(userId: string, sameAs: string | null, value: unknown): string {
  return sameAs ? `${userId}|${sameAs}=${JSON.stringify(value ?? null)}` : userId;
}

/** The entering event's value at `key` (the context holds it under the entrance's data key). */
function enteringValue(context: Record<string, unknown>, key: string): unknown {
  for (const data of Object.values(context))
    if (data && typeof data === "object" && key in (data as object)) return (data as Record<string, unknown>)[key];
  return null;
}

/**
 * What an entry at a wait step waits for: the awaited event's name and match key (journey_entries_wait_idx),
 * and the description its row keeps. A list wait awaits its list's membership event, keyed by the list; an
 * event wait with `same_as` is keyed by the entering event's value at that key. Also used when an edit
 * changes what a wait waits for (rekey-waits.ts).
 */
export function waitTarget(
  entry: Pick<EntryInHand, "userId" | "context">,
  step: Step & { kind: "wait" },
): Pick<EntryEnd, "waitEvent" | "waitKey" | "waitingFor"> {
  const timeout = step.timeout ?? null;
  if (step.list)
    return {
      waitEvent: step.list.in ? "list.user.added" : "list.user.removed",
      waitKey: waitKey(entry.userId, "list_id", step.list.list_id),
      waitingFor: { kind: "list", list_id: step.list.list_id, in: step.list.in, timeout },
    };
  const ev = step.event!;
  const value = ev.same_as ? enteringValue(entry.context, ev.same_as) : undefined;
  return {
    waitEvent: ev.name,
    waitKey: waitKey(entry.userId, ev.same_as ?? null, value),
    waitingFor: {
      kind: "event",
      name: ev.name,
      condition: ev.condition ?? null,
      ...(ev.same_as ? { same_as: ev.same_as, value: value ?? null } : {}),
      timeout,
    },
  };
}

/**
 * A duration delay's outcome, written when it ends: its end in the project's zone (a duration has no zone
 * of its own, and the project's is at hand, where the user's would cost a lookup per entry), else UTC.
 */
function delayedUntil(entry: EntryInHand): string {
  if (!entry.wakeAt) return "delayed";
  const zone = entry.projectZone && isTimeZone(entry.projectZone) ? entry.projectZone : "UTC";
  return `delayed until ${localIso(entry.wakeAt, zone)} (${zone})`;
}

/** At most this many steps in one walk: more than a journey has, so a walk always ends at a pause or an exit. */
const MAX_HOPS = 101;

/**
 * Moves one entry through its steps from where it stands, as far as it goes without waiting: runs each
 * step's effect (through `fx`, in the caller's transaction), records each step passed, and stops at a
 * delay, a wait, a send whose message is not final yet, or the end. The caller writes the result in the
 * same transaction (write-moves.ts), so an effect and the move past it commit together.
 */
export async function walkEntry(
  fx: WalkEffects,
  entry: EntryInHand,
  steps: Step[],
  now: Date,
): Promise<{ path: PathRow[]; end: EntryEnd }> {
  const path: PathRow[] = [];
  let key = entry.stepKey;
  let since = entry.stepSince;
  let waking = entry.state === "waiting";
  const pass = (step: Step, outcome: string, to: string | null) => {
    path.push({ stepKey: step.key, kind: step.kind, enteredAt: since, leftAt: now, outcome });
    key = to;
    since = now;
    waking = false;
  };
  /** Where the walk stops: at the current step, waiting for nothing unless `over` says what. */
  const stop = (state: EntryEnd["state"], over: Partial<EntryEnd>): { path: PathRow[]; end: EntryEnd } => ({
    path,
    end: {
      stepKey: key,
      state,
      stepSince: since,
      wakeAt: null,
      wakeAfter: null,
      waitingFor: null,
      waitEvent: null,
      waitKey: null,
      ...over,
    },
  });
  const wait = (over: Partial<EntryEnd>) => stop("waiting", over);
  for (let hop = 0; key !== null; hop++) {
    if (hop === MAX_HOPS) {
      // Only steps saved before the cycle check measured pauses can get here: the entry exits, saying why.
      const step = steps.find((s) => s.key === key);
      if (step)
        pass(
          step,
          `exited: more than ${MAX_HOPS} steps in one pass (a loop with no pause of at least the minimum)`,
          null,
        );
      break;
    }
    const i = steps.findIndex((s) => s.key === key);
    const step = steps[i];
    if (!step) break; // A step removed by an edit the entry was not moved from: it exits (never stuck).
    const [first, second] = exitsOf(steps, i);
    const next = first?.to ?? null;
    switch (step.kind) {
      case "delay": {
        if (waking) {
          pass(step, String(entry.waitingFor?.outcome ?? delayedUntil(entry)), next);
          break;
        }
        if (step.duration)
          return wait({ wakeAfter: step.duration, waitingFor: { kind: "delay", duration: step.duration } });
        const zone = pickZone(step.until!.timezone, () => entry.userZone, entry.projectZone);
        const at = nextTimeOfDay(now, step.until!.time, step.until!.weekdays, zone.zone);
        const outcome = `delayed until ${localIso(at, zone.zone)} (${zone.zone}${zone.note ? `: ${zone.note}` : ""})`;
        return wait({ wakeAt: at, waitingFor: { kind: "delay", until: at.toISOString(), zone: zone.zone, outcome } });
      }
      case "wait": {
        if (waking) {
          pass(step, "timed out", second?.to ?? null);
          break;
        }
        if (step.list) {
          const inside = await fx.inList(entry, step.list.list_id);
          if (inside === step.list.in) {
            pass(step, `released: already ${inside ? "in" : "out of"} list ${step.list.list_id}`, next);
            break;
          }
        }
        return wait({ wakeAfter: step.timeout ?? null, ...waitTarget(entry, step) });
      }
      case "branch": {
        const holds = await fx.ruleHolds(entry, step.rule);
        pass(step, `branch: ${holds}`, holds ? next : (second?.to ?? null));
        break;
      }
      case "split": {
        // Drawn from the entry's id even when a test's winner overrides it: reading the id keeps split
        // passages walked per entry (walk-alike.ts), so each entry's passage is recorded (write-moves.ts).
        const drawn = splitPath(
          entry.id,
          step.paths.map((p) => p.weight),
        );
        const won = (step as SplitInHand).winner;
        const n = won ?? drawn;
        pass(
          step,
          won === undefined ? `split: path ${n + 1}` : `split: path ${n + 1} (the test's winner)`,
          step.paths[n]!.next,
        );
        path[path.length - 1]!.splitPath = n;
        break;
      }
      case "update": {
        const changed = await fx.mergeData(entry, step.data);
        pass(step, changed.length ? `updated ${changed.join(", ")}` : "updated: nothing changed", next);
        break;
      }
      case "send": {
        if (waking && typeof entry.waitingFor?.message_id === "string") {
          const outcome = await fx.messageOutcome(entry, entry.waitingFor.message_id);
          if (outcome === null) return wait({ waitingFor: entry.waitingFor });
          pass(step, outcome, next);
          break;
        }
        const sent = await fx.send(entry, step);
        if ("waitFor" in sent) return wait({ waitingFor: { kind: "message", message_id: sent.waitFor } });
        pass(step, sent.outcome, next);
        break;
      }
      case "exit":
        pass(step, "exit", null);
        break;
    }
  }
  return stop("exited", { stepKey: null });
}
