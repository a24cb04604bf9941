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
 * Pipeline step 4's first half: the batch's events release the entries waiting for them. Each event is
 * looked up, for its user, by the keys the project's wait steps give that name (the user alone for a wait
 * without `same_as`; the user with each `same_as` key and the event's value there; a list's membership
 * events by the list) on journey_entries_wait_idx, so the cost follows the batch, not the number of
 * waiting entries. An organization event is looked up for each member of the organization, as it enters
 * each member at an entrance (the spec: an organization event that triggers a journey evaluates each
 * member). A waiting entry whose condition holds on an event received after it began to wait passes its
 * wait ("released by event <name> <id>") and is due at its next step (the due loop runs it), or exits; in
 * the step's transaction, with its done-marker. The probes follow the steps as they are now: an edit that
 * changes what a wait awaits re-keys the entries waiting there (rekey-waits.ts).
 */
export async function releaseWaits(ctx: ProjectContext, rows: EventRow[]): Promise<number> {
  const candidates = rows.filter((e) => e.userId || e.organizationId);
  if (!candidates.length) return 0;
  const names = [...new Set(candidates.map((e) => e.name))];
  // The `same_as` keys of the event waits for these names; null for a wait without one.
  const shapes = await queryRows<{ name: string; same_as: string | null }>(
    ctx.db,
    sql`
    select distinct s -> 'event' ->> 'name' as name, s -> 'event' ->> 'same_as' as same_as
    from journeys j cross join lateral jsonb_array_elements(j.steps) s
    where j.project_id = ${ctx.projectId}::uuid and s ->> 'kind' = 'wait'
      and s -> 'event' ->> 'name' in (select jsonb_array_elements_text(${JSON.stringify(names)}::jsonb))`,
  );
  const isListEvent = (name: string) => name === "list.user.added" || name === "list.user.removed";
  const awaited = (name: string) => isListEvent(name) || shapes.some((k) => k.name === name);
  // Each event with the users it stands for: its user, or its organization's members.
  const targets: { event: EventRow; userId: string }[] = [];
  const orgEvents = candidates.filter((e) => !e.userId && awaited(e.name));
  const members = orgEvents.length
    ? await queryRows<{ organization_id: string; user_id: string }>(
        ctx.db,
        sql`
        select m.organization_id, m.user_id from organization_members m
        where m.project_id = ${ctx.projectId}::uuid
          and m.organization_id in (select jsonb_array_elements_text(${JSON.stringify([...new Set(orgEvents.map((e) => e.organizationId))])}::jsonb)::uuid)`,
      )
    : [];
  const membersOf = new Map<string, string[]>();
  for (const m of members) membersOf.set(m.organization_id, [...(membersOf.get(m.organization_id) ?? []), m.user_id]);
  for (const e of candidates) {
    if (!awaited(e.name)) continue;
    if (e.userId) targets.push({ event: e, userId: e.userId });
    else for (const u of membersOf.get(e.organizationId!) ?? []) targets.push({ event: e, userId: u });
  }
  if (!targets.length) return 0;
  const probes: { name: string; key: string; ord: number }[] = [];
  targets.forEach(({ event: e, userId }, ord) => {
    const keys = new Set<string>();
    for (const k of shapes)
      if (k.name === e.name) keys.add(waitKey(userId, k.same_as, k.same_as ? e.data[k.same_as] : null));
    if (isListEvent(e.name)) keys.add(waitKey(userId, "list_id", e.data.list_id));
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
      .map((k) => targets[Number(k)]!.event)
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
