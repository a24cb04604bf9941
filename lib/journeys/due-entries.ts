import { type SQL, sql } from "drizzle-orm";
import type { Transaction } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import type { SplitInHand, Step } from "./step-schema";
import type { EntryInHand } from "./walk";

/** A due entry as the claims read it (advance-due.ts, advance-burst.ts). */
export interface DueRow {
  project_id: string;
  id: string;
  journey_id: string;
  user_id: string;
  event_id: string;
  context: Record<string, unknown>;
  step_key: string | null;
  state: "active" | "waiting";
  step_since: string | null;
  entered_at: string;
  wake_at: string;
  /** As text: entries waiting for the same thing are grouped by it, and it is parsed once per group. */
  waiting_for: string | null;
}

/** The columns of a DueRow, of `journey_entries e`. */
export const dueColumns = sql`e.project_id, e.id, e.journey_id, e.user_id, e.event_id, e.context, e.step_key, e.state,
      e.step_since::text, e.entered_at::text, e.wake_at::text, e.waiting_for::text`;

/** Which entries of `journey_entries e` are due at `at`: their time has come and their journey is not paused. */
export function dueWhere(at: SQL, projectId?: string): SQL {
  return sql`e.wake_at <= ${at} ${projectId ? sql`and e.project_id = ${projectId}::uuid` : sql``}
      and not exists (select 1 from journeys j where j.project_id = e.project_id and j.id = e.journey_id and j.paused)`;
}

/** The journey a due entry walks in, as the claims load it. */
export interface DueJourney {
  project_id: string;
  id: string;
  name: string;
  timezone: string;
}

/** The journeys due entries walk in, with their steps and their project's zone, each once. */
export async function dueJourneys(
  { db }: AppContext<Transaction>,
  keys: { project_id: string; journey_id: string }[],
): Promise<(DueJourney & { steps: Step[] })[]> {
  const rows = await queryRows<DueJourney & { steps: Step[]; winners: Record<string, number> | null }>(
    db,
    sql`
    select j.project_id, j.id, j.name, j.steps, p.timezone,
      (select jsonb_object_agg(w.step_key, w.winner) from ab_decisions w where w.project_id = j.project_id
        and w.owner_kind = 'journey' and w.owner_id = j.id and w.winner is not null) as winners
    from jsonb_to_recordset(${JSON.stringify(keys.map(({ project_id, journey_id }) => ({ project_id, journey_id })))}::jsonb)
      as d(project_id uuid, journey_id uuid)
    join journeys j on j.project_id = d.project_id and j.id = d.journey_id
    join projects p on p.id = j.project_id`,
  );
  return rows.map(({ winners, ...j }) => ({ ...j, steps: withWinners(j.steps, winners) }));
}

/** Splits whose test decided a winner, with `auto_winner`, take it (walk.ts); a winner beyond an edited split's paths is ignored. */
function withWinners(steps: Step[], winners: Record<string, number> | null): Step[] {
  if (!winners) return steps;
  return steps.map((s) => {
    const w = winners[s.key];
    return s.kind === "split" && s.test?.auto_winner && w !== undefined && w < s.paths.length
      ? ({ ...s, winner: w } as SplitInHand)
      : s;
  });
}

/** A due row in hand for the walk; `awaited` is its `waiting_for` parsed (shared by the entries of a group). */
export function entryOf(
  d: DueRow,
  journey: DueJourney,
  awaited: Record<string, unknown> | null,
  userZone: string | null,
): EntryInHand {
  return {
    projectId: d.project_id,
    id: d.id,
    journeyId: d.journey_id,
    journeyName: journey.name,
    userId: d.user_id,
    eventId: d.event_id,
    context: d.context,
    stepKey: d.step_key,
    state: d.state,
    stepSince: new Date(d.step_since ?? d.entered_at),
    wakeAt: new Date(d.wake_at),
    waitingFor: awaited,
    userZone,
    projectZone: journey.timezone,
  };
}
