import type { ProjectContext } from "@/lib/access/context";
import type { EditedEntry } from "./rekey-waits";
import { nextOf } from "./step-graph";
import type { Step } from "./step-schema";
import { type Move, writeMoves } from "./write-moves";

/**
 * Entries at a step an edit removed (`rows`, locked, at keys not in `steps`, the steps as they are now)
 * move on at once to that step's `next` in the steps before the edit (`before`), following them while
 * those too are gone, due there now, or exit when there is none; the path records "step removed by an
 * edit". Written on the edits' own counter shard (-1): the caller holds the journey's lock
 * (write-moves.ts, countPasses). Returns how many entries moved.
 */
export async function moveOffRemovedSteps(
  ctx: ProjectContext,
  {
    journeyId,
    journeyName,
    before,
    steps,
    rows,
  }: { journeyId: string; journeyName: string; before: Step[]; steps: Step[]; rows: EditedEntry[] },
): Promise<number> {
  const kept = new Set(steps.map((s) => s.key));
  const removed = rows.filter((r) => !kept.has(r.step_key));
  if (!removed.length) return 0;
  const landing = (key: string): string | null => {
    const seen = new Set<string>();
    let k: string | null = nextOf(before, key);
    while (k !== null && !kept.has(k) && !seen.has(k)) {
      seen.add(k);
      k = nextOf(before, k);
    }
    return k !== null && kept.has(k) ? k : null;
  };
  const now = new Date();
  const moves: Move[] = removed.map((r) => {
    const to = landing(r.step_key);
    const kind = before.find((s) => s.key === r.step_key)?.kind ?? "removed";
    return {
      entry: {
        projectId: ctx.projectId,
        id: r.id,
        journeyId,
        journeyName,
        userId: r.user_id,
        eventId: r.event_id,
        context: {},
        stepKey: r.step_key,
        state: "waiting",
        stepSince: new Date(r.step_since),
        wakeAt: null,
        waitingFor: null,
        userZone: null,
        projectZone: null,
      },
      path: [
        {
          stepKey: r.step_key,
          kind,
          enteredAt: new Date(r.step_since),
          leftAt: now,
          outcome: `step removed by an edit: ${to ? `moved to ${to}` : "exited"}`,
        },
      ],
      end: {
        stepKey: to,
        state: to ? "active" : "exited",
        stepSince: now,
        wakeAt: to ? now : null,
        wakeAfter: null,
        waitingFor: null,
        waitEvent: null,
        waitKey: null,
      },
    };
  });
  await writeMoves(ctx, { moves, now, shard: -1 });
  return moves.length;
}
