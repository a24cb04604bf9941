import { sql } from "drizzle-orm";
import type { Db, Transaction } from "@/db/client";
import { systemContext, type AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { stepEffects } from "./step-effects";
import type { Step } from "./step-schema";
import { type EntryInHand, walkEntry } from "./walk";
import { type Move, writeMoves } from "./write-moves";

interface DueRow {
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
  waiting_for: Record<string, unknown> | null;
}

/**
 * One batch of the journeys' due loop, in one transaction: claims up to `batchSize` entries whose
 * `wake_at` has come (a delay's end, a wait's timeout, a new or released entry, a woken send), oldest
 * first, FOR UPDATE SKIP LOCKED on the due index as schedule firings are claimed, passing over paused
 * journeys; walks each through its steps (walk.ts) and writes them all (write-moves.ts) before commit.
 * A crash before commit leaves every claimed entry due for the next claimer, its effects undone with it.
 * Takes an AppContext: a batch claims every project's due entries (`projectId` narrows it, for tests).
 */
export async function advanceDueEntries(
  ctx: AppContext<Db>,
  opts: { batchSize?: number; now?: Date; projectId?: string } = {},
): Promise<{ claimed: number; exited: number }> {
  return ctx.db.transaction((tx) => advanceIn(tx, opts));
}

async function advanceIn(
  tx: Transaction,
  opts: { batchSize?: number; now?: Date; projectId?: string },
): Promise<{ claimed: number; exited: number }> {
  const now = opts.now ?? new Date();
  const at = sql`${now.toISOString()}::timestamptz`;
  // The due index walked in wake_at order, stopping after the batch: never a sort of every due entry
  // (lib/schedules/fire-due.ts has the same reason for the same settings).
  await tx.execute(sql`select set_config('enable_sort', 'off', true), set_config('enable_seqscan', 'off', true)`);
  const due = await queryRows<DueRow>(
    tx,
    sql`
    select e.project_id, e.id, e.journey_id, e.user_id, e.event_id, e.context, e.step_key, e.state,
      e.step_since::text, e.entered_at::text, e.wake_at::text, e.waiting_for
    from journey_entries e
    where e.wake_at <= ${at} ${opts.projectId ? sql`and e.project_id = ${opts.projectId}::uuid` : sql``}
      and not exists (select 1 from journeys j where j.project_id = e.project_id and j.id = e.journey_id and j.paused)
    order by e.wake_at
    limit ${opts.batchSize ?? 1000}
    for update of e skip locked`,
  );
  await tx.execute(sql`set local enable_sort = on; set local enable_seqscan = on`);
  if (!due.length) return { claimed: 0, exited: 0 };
  const journeys = await queryRows<{ project_id: string; id: string; name: string; steps: Step[]; timezone: string }>(
    tx,
    sql`
    select j.project_id, j.id, j.name, j.steps, p.timezone
    from jsonb_to_recordset(${JSON.stringify(distinctJourneys(due))}::jsonb) as d(project_id uuid, journey_id uuid)
    join journeys j on j.project_id = d.project_id and j.id = d.journey_id
    join projects p on p.id = j.project_id`,
  );
  const byId = new Map(journeys.map((j) => [`${j.project_id}/${j.id}`, j]));
  const zoned = journeys.some((j) => j.steps.some((s) => s.kind === "delay" && s.until?.timezone === "user"));
  const zones = zoned ? await userZones(tx, due) : new Map<string, string | null>();
  const moves: Move[] = [];
  for (const d of due) {
    const j = byId.get(`${d.project_id}/${d.journey_id}`)!;
    const entry: EntryInHand = {
      projectId: d.project_id,
      id: d.id,
      journeyId: d.journey_id,
      journeyName: j.name,
      userId: d.user_id,
      eventId: d.event_id,
      context: d.context,
      stepKey: d.step_key,
      state: d.state,
      stepSince: new Date(d.step_since ?? d.entered_at),
      wakeAt: new Date(d.wake_at),
      waitingFor: d.waiting_for,
      userZone: zones.get(`${d.project_id}/${d.user_id}`) ?? null,
      projectZone: j.timezone,
    };
    // The effects run in this transaction: a failure rolls the whole batch back for the next claim.
    const { path, end } = await walkEntry(stepEffects(systemContext(tx, d.project_id)), entry, j.steps, now);
    moves.push({ entry, path, end });
  }
  await writeMoves({ db: tx }, { moves, now });
  return { claimed: due.length, exited: moves.filter((m) => m.end.state === "exited").length };
}

/** The batch's journeys, each once (a batch is mostly one journey's entries: no need to send them all). */
function distinctJourneys(due: DueRow[]): { project_id: string; journey_id: string }[] {
  const seen = new Map<string, { project_id: string; journey_id: string }>();
  for (const d of due)
    seen.set(`${d.project_id}/${d.journey_id}`, { project_id: d.project_id, journey_id: d.journey_id });
  return [...seen.values()];
}

/** The claimed entries' users' time zones, by key probe (asked only when a journey has a `user` zone delay). */
async function userZones(tx: Transaction, due: DueRow[]): Promise<Map<string, string | null>> {
  const rows = await queryRows<{ project_id: string; id: string; timezone: string | null }>(
    tx,
    sql`
    select u.project_id, u.id, u.timezone
    from (select distinct project_id, user_id from jsonb_to_recordset(${JSON.stringify(due.map(({ project_id, user_id }) => ({ project_id, user_id })))}::jsonb)
      as d(project_id uuid, user_id uuid)) d
    cross join lateral (select u.project_id, u.id, u.timezone from users u
      where u.project_id = d.project_id and u.id = d.user_id offset 0) u`,
  );
  return new Map(rows.map((r) => [`${r.project_id}/${r.id}`, r.timezone]));
}
