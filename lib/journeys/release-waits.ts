import { sql } from "drizzle-orm";
import type { EventRow } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import type { Condition } from "@/lib/lists/rules";
import { matchesCondition } from "./match-condition";
import { exitsOf } from "./step-graph";
import type { Step } from "./step-schema";
import { waitKey } from "./walk";
import { type Move, writeMoves } from "./write-moves";

interface Waiting {
  id: string;
  journey_id: string;
  journey_name: string;
  user_id: string;
  event_id: string;
  context: Record<string, unknown>;
  step_key: string;
  step_since: string;
  waiting_for: { condition?: Condition[] | null };
  steps: Step[];
  keys: string[];
}

/**
 * Pipeline step 4's first half: the batch's events release the entries waiting for them. Each event of
 * a user is looked up by the keys a wait can have (the user alone, and the user with each `same_as`
 * key some wait step of the project uses and the event's value there) on journey_entries_wait_idx, so
 * the cost follows the batch, not the number of waiting entries. A waiting entry whose condition holds
 * on an event received after it began to wait passes its wait ("released by event <id>") and is due at
 * its next step (the due loop runs it), or exits; in the step's transaction, with its done-marker.
 */
export async function releaseWaits(ctx: ProjectContext, rows: EventRow[]): Promise<number> {
  const events = rows.filter((e) => e.userId);
  if (!events.length) return 0;
  const names = [...new Set(events.map((e) => e.name))];
  const keyed = await queryRows<{ name: string; same_as: string }>(
    ctx.db,
    sql`
    select distinct s -> 'event' ->> 'name' as name, s -> 'event' ->> 'same_as' as same_as
    from journeys j cross join lateral jsonb_array_elements(j.steps) s
    where j.project_id = ${ctx.projectId}::uuid and s ->> 'kind' = 'wait' and s -> 'event' ->> 'same_as' is not null
      and s -> 'event' ->> 'name' in (select jsonb_array_elements_text(${JSON.stringify(names)}::jsonb))`,
  );
  const probes: { name: string; key: string; ord: number }[] = [];
  events.forEach((e, ord) => {
    const keys = new Set([e.userId!]);
    for (const k of keyed) if (k.name === e.name) keys.add(waitKey(e.userId!, k.same_as, e.data[k.same_as]));
    // A list wait awaits its list's membership events, keyed by the list.
    if (e.name === "list.user.added" || e.name === "list.user.removed")
      keys.add(waitKey(e.userId!, "list_id", e.data.list_id));
    for (const key of keys) probes.push({ name: e.name, key, ord });
  });
  // Locked in id order as found (not SKIP LOCKED: an entry the due loop holds is waited for, and the
  // row is then checked again against the probe, so one it moved on is no longer found).
  const rows2 = await queryRows<Omit<Waiting, "keys"> & { ord: number }>(
    ctx.db,
    sql`
    select e.id, e.journey_id, j.name as journey_name, e.user_id, e.event_id, e.context, e.step_key,
      e.step_since::text, e.waiting_for, j.steps, p.ord
    from jsonb_to_recordset(${JSON.stringify(probes)}::jsonb) as p(name text, key text, ord int)
    join journey_entries e on e.project_id = ${ctx.projectId}::uuid and e.wait_event = p.name and e.wait_key = p.key
    join journeys j on j.project_id = e.project_id and j.id = e.journey_id
    where e.state = 'waiting'
    order by e.id
    for update of e`,
  );
  const found = new Map<string, Waiting>();
  for (const r of rows2) {
    const w = found.get(r.id);
    if (w) w.keys.push(String(r.ord));
    else found.set(r.id, { ...r, keys: [String(r.ord)] });
  }
  const now = new Date();
  const moves: Move[] = [];
  for (const w of found.values()) {
    const since = new Date(w.step_since);
    const release = w.keys
      .map((k) => events[Number(k)]!)
      .filter((e) => e.receivedAt >= since && (w.waiting_for.condition ?? []).every((c) => matchesCondition(e.data, c)))
      .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())[0];
    if (!release) continue;
    const i = w.steps.findIndex((s) => s.key === w.step_key);
    const next = i >= 0 ? (exitsOf(w.steps, i)[0]?.to ?? null) : null;
    moves.push({
      entry: {
        projectId: ctx.projectId,
        id: w.id,
        journeyId: w.journey_id,
        journeyName: w.journey_name,
        userId: w.user_id,
        eventId: w.event_id,
        context: w.context,
        stepKey: w.step_key,
        state: "waiting",
        stepSince: since,
        wakeAt: null,
        waitingFor: w.waiting_for,
        userZone: null,
        projectZone: null,
      },
      path: [
        {
          stepKey: w.step_key,
          kind: "wait",
          enteredAt: since,
          leftAt: now,
          outcome: `released by event ${release.name} ${release.id}`,
        },
      ],
      end: {
        stepKey: next,
        state: next ? "active" : "exited",
        stepSince: now,
        wakeAt: next ? now : null,
        wakeAfter: null,
        waitingFor: null,
        waitEvent: null,
        waitKey: null,
      },
    });
  }
  await writeMoves(ctx, { moves, now });
  return moves.length;
}
