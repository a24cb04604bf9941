import type { Step } from "./step-schema";
import { type EntryInHand, type WalkEffects, walkEntry } from "./walk";
import type { Move, WalkedMove } from "./write-moves";

/** What an entry holds of its own, as opposed to what it shares with entries standing where it stands. */
const OWN = ["id", "userId", "eventId", "context", "userZone"] as const;

/**
 * Walks entries that stand alike (one journey, step, state, wake time and thing awaited: the caller groups
 * them) with one walk when it can: the first entry is walked watched, and if its walk read nothing of
 * the entry's own (its id, user, event, context or the user's zone) and ran no effect, every other entry
 * would have walked the same way, so they share its result (`sameAs`). Otherwise each is walked on its
 * own. The walk stays the one home of every step's rule: this only notices what it read.
 *
 * The time the entry came to its step is carried, not read: the walk copies it into the first path row's
 * start and, when no step is passed, the end's `stepSince`, and write-moves.ts puts each entry's own there.
 * A burst of ended delays (one step, one instant) is then one walk a batch instead of a thousand.
 */
export async function walkAlike(fx: WalkEffects, entries: EntryInHand[], steps: Step[], now: Date): Promise<Move[]> {
  const [first, ...rest] = entries;
  if (!first) return [];
  let own = false;
  const seen = <T>(x?: T): T => {
    own = true;
    return x as T;
  };
  const watched = watchedEntry(first, seen);
  const watchedFx: WalkEffects = {
    ruleHolds: (e, r) => fx.ruleHolds(seen(e), r),
    inList: (e, l) => fx.inList(seen(e), l),
    mergeData: (e, d) => fx.mergeData(seen(e), d),
    send: (e, s) => fx.send(seen(e), s),
    messageOutcome: (e, m) => fx.messageOutcome(seen(e), m),
  };
  const walked = await walkEntry(watchedFx, watched, steps, now);
  const lead: WalkedMove = { entry: first, ...walked };
  if (!own) return [lead, ...rest.map((entry) => ({ entry, sameAs: lead }))];
  const moves: Move[] = [lead];
  for (const entry of rest) moves.push({ entry, ...(await walkEntry(fx, entry, steps, now)) });
  return moves;
}

/** A copy of the entry whose own fields call `seen` when read. */
function watchedEntry(entry: EntryInHand, seen: () => void): EntryInHand {
  const watched = { ...entry };
  for (const k of OWN)
    Object.defineProperty(watched, k, {
      enumerable: true,
      get() {
        seen();
        return entry[k];
      },
    });
  return watched;
}

/** Thrown inside a walk for all: the walk read the entry's own or reached an effect. */
class NotAlike extends Error {}

/**
 * The walk every entry standing where `entry` stands would take, or null if it would differ between them:
 * the walk of `entry` with its own fields and every effect refused (the first refusal ends the walk, so no
 * effect runs). For entries not claimed yet (advance-burst.ts): their walk is known before they are.
 */
export async function walkForAll(entry: EntryInHand, steps: Step[], now: Date): Promise<WalkedMove | null> {
  const refuse = (): never => {
    throw new NotAlike();
  };
  const fx: WalkEffects = {
    ruleHolds: refuse,
    inList: refuse,
    mergeData: refuse,
    send: refuse,
    messageOutcome: refuse,
  };
  try {
    return { entry, ...(await walkEntry(fx, watchedEntry(entry, refuse), steps, now)) };
  } catch (e) {
    if (e instanceof NotAlike) return null;
    throw e;
  }
}
