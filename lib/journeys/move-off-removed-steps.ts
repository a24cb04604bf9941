import { sql } from "drizzle-orm";
import type { JourneyEntry } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { nextOf } from "./step-graph";
import type { Step } from "./step-schema";
import { type Move, writeMoves } from "./write-moves";

/**
 * An edit of the steps, in its transaction: every entry at a step the edit removes moves on at once to
 * that step's `next` (following the old steps while they too are removed), due there now, or exits when
 * there is none; its path records "step removed by an edit". Entries at kept steps stay where they
 * are: a changed delay or wait applies to those who reach it afterwards.
 */
export async function moveOffRemovedSteps(
  ctx: ProjectContext,
  { journeyId, before, after }: { journeyId: string; before: Step[]; after: Step[] },
): Promise<number> {
  const kept = new Set(after.map((s) => s.key));
  const removed = before.filter((s) => !kept.has(s.key)).map((s) => s.key);
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
  const rows = await queryRows<
    Pick<JourneyEntry, "id" | "userId" | "eventId" | "stepKey"> & { since: string; name: string }
  >(
    ctx.db,
    sql`
    select e.id, e.user_id as "userId", e.event_id as "eventId", e.step_key as "stepKey", e.step_since::text as since, j.name
    from journey_entries e join journeys j on j.project_id = e.project_id and j.id = e.journey_id
    where e.project_id = ${ctx.projectId}::uuid and e.journey_id = ${journeyId}::uuid
      and e.step_key in (select jsonb_array_elements_text(${JSON.stringify(removed)}::jsonb))
    order by e.id
    for update of e`,
  );
  const now = new Date();
  const moves: Move[] = rows.map((r) => {
    const to = landing(r.stepKey!);
    const from = before.find((s) => s.key === r.stepKey)!;
    return {
      entry: {
        projectId: ctx.projectId,
        id: r.id,
        journeyId,
        journeyName: r.name,
        userId: r.userId,
        eventId: r.eventId,
        context: {},
        stepKey: r.stepKey,
        state: "waiting",
        stepSince: new Date(r.since),
        wakeAt: null,
        waitingFor: null,
        userZone: null,
        projectZone: null,
      },
      path: [
        {
          stepKey: from.key,
          kind: from.kind,
          enteredAt: new Date(r.since),
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
  // Its own counter shard: this edit holds the journey's lock (write-moves.ts, countPasses).
  await writeMoves(ctx, { moves, now, shard: -1 });
  return moves.length;
}
