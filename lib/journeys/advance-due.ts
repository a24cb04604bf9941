import { sql } from "drizzle-orm";
import type { Db, Transaction } from "@/db/client";
import { systemContext, type AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { advanceBurst } from "./advance-burst";
import { type DueRow, dueColumns, dueJourneys, dueWhere, entryOf } from "./due-entries";
import { stepEffects } from "./step-effects";
import type { Step } from "./step-schema";
import type { EntryInHand, WalkEffects } from "./walk";
import { walkAlike } from "./walk-alike";
import { type Move, walkOf, writeMoves } from "./write-moves";

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
  const batchSize = opts.batchSize ?? 1000;
  // A burst (many due at one instant, standing alike) is claimed and moved in one statement.
  const burst = await advanceBurst({ db: tx }, { due: dueWhere(at, opts.projectId), now, batchSize });
  if (burst) {
    await tx.execute(sql`set local enable_sort = on; set local enable_seqscan = on`);
    return burst;
  }
  const due = await queryRows<DueRow>(
    tx,
    sql`
    select ${dueColumns}
    from journey_entries e
    where ${dueWhere(at, opts.projectId)}
    order by e.wake_at
    limit ${batchSize}
    for update of e skip locked`,
  );
  await tx.execute(sql`set local enable_sort = on; set local enable_seqscan = on`);
  if (!due.length) return { claimed: 0, exited: 0 };
  const journeys = await dueJourneys({ db: tx }, distinctJourneys(due));
  const byId = new Map(journeys.map((j) => [`${j.project_id}/${j.id}`, j]));
  const zoned = journeys.some((j) => j.steps.some((s) => s.kind === "delay" && s.until?.timezone === "user"));
  const zones = zoned ? await userZones(tx, due) : new Map<string, string | null>();
  const waitForEdit = await atStepsAnEditIsMovingOff(tx, due, byId);
  // Entries standing alike (one journey, step, state, wake time and thing awaited) are walked together
  // (walk-alike.ts): a burst of ended delays is one walk a batch. Each project's effects once.
  const alike = new Map<string, EntryInHand[]>();
  const waitingFor = new Map<string, Record<string, unknown>>();
  const postponed: DueRow[] = [];
  for (const d of due) {
    const j = byId.get(`${d.project_id}/${d.journey_id}`)!;
    if (waitForEdit.has(d)) {
      postponed.push(d);
      continue;
    }
    let awaited: Record<string, unknown> | null = null;
    if (d.waiting_for !== null) {
      awaited = waitingFor.get(d.waiting_for) ?? null;
      if (!awaited) waitingFor.set(d.waiting_for, (awaited = JSON.parse(d.waiting_for) as Record<string, unknown>));
    }
    const entry = entryOf(d, j, awaited, zones.get(`${d.project_id}/${d.user_id}`) ?? null);
    const key = `${d.project_id}/${d.journey_id}/${d.step_key}/${d.state}/${d.wake_at}/${d.waiting_for}`;
    const group = alike.get(key);
    if (group) group.push(entry);
    else alike.set(key, [entry]);
  }
  const effects = new Map<string, WalkEffects>();
  const moves: Move[] = [];
  for (const group of alike.values()) {
    const { projectId, journeyId } = group[0]!;
    let fx = effects.get(projectId);
    if (!fx) effects.set(projectId, (fx = stepEffects(systemContext(tx, projectId))));
    // The effects run in this transaction: a failure rolls the whole batch back for the next claim.
    for (const m of await walkAlike(fx, group, byId.get(`${projectId}/${journeyId}`)!.steps, now)) moves.push(m);
  }
  await writeMoves({ db: tx }, { moves, now });
  if (postponed.length)
    await tx.execute(sql`
      update journey_entries e set wake_at = ${at} + ${`${EDIT_PENDING_RETRY_SECONDS} seconds`}::interval
      from jsonb_to_recordset(${JSON.stringify(postponed.map(({ project_id, id }) => ({ project_id, id })))}::jsonb)
        as p(project_id uuid, id uuid)
      where e.project_id = p.project_id and e.id = p.id`);
  return { claimed: due.length, exited: moves.filter((m) => walkOf(m).end.state === "exited").length };
}

/** How long an entry at a step a pending edit removed is left for the edit's pages before it is due again. */
const EDIT_PENDING_RETRY_SECONDS = 5;

/**
 * Due entries at a step their journey no longer has while an edit of it is still being applied (the
 * worker's pages, apply-step-edits.ts, have not reached them): they are left for those pages, which move
 * them on to where the steps before the edit led (move-off-removed-steps.ts, the one home of that rule),
 * instead of being walked, which would exit them. Asked only when a claimed entry's step is missing.
 */
async function atStepsAnEditIsMovingOff(
  tx: Transaction,
  due: DueRow[],
  journeys: Map<string, { steps: Step[] }>,
): Promise<Set<DueRow>> {
  const stranded = due.filter(
    (d) =>
      d.step_key !== null && !journeys.get(`${d.project_id}/${d.journey_id}`)!.steps.some((s) => s.key === d.step_key),
  );
  if (!stranded.length) return new Set();
  const pending = await queryRows<{ project_id: string; journey_id: string }>(
    tx,
    sql`
    select distinct x.project_id, x.journey_id from journey_edits x
    join jsonb_to_recordset(${JSON.stringify(distinctJourneys(stranded))}::jsonb) as d(project_id uuid, journey_id uuid)
      on x.project_id = d.project_id and x.journey_id = d.journey_id`,
  );
  const edited = new Set(pending.map((r) => `${r.project_id}/${r.journey_id}`));
  return new Set(stranded.filter((d) => edited.has(`${d.project_id}/${d.journey_id}`)));
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
