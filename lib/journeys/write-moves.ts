import { sql } from "drizzle-orm";
import { systemContext, type AppContext } from "@/lib/access/context";
import { uuidv7s } from "@/lib/db/uuidv7";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { bypassIntake } from "@/lib/pipeline/enqueue-steps";
import type { EntryEnd, EntryInHand, PathRow } from "./walk";

export interface Move {
  entry: EntryInHand;
  path: PathRow[];
  end: EntryEnd;
}

/**
 * Writes walked entries in the caller's transaction, set-based whatever their number: each entry's new
 * place and state in one UPDATE, the steps they passed appended to their paths in one INSERT, and one
 * `journey.user.exited` per entry that ended. With the effects the walk ran in the same transaction, a
 * step's effect and the move past it commit together or not at all.
 */
export async function writeMoves(
  ctx: AppContext,
  { moves, now, shard }: { moves: Move[]; now: Date; shard?: number },
): Promise<void> {
  if (!moves.length) return;
  const at = sql`${now.toISOString()}::timestamptz`;
  const ends = moves.map(({ entry: e, end }) => ({
    project_id: e.projectId,
    id: e.id,
    step_key: end.stepKey,
    state: end.state,
    step_since: end.stepSince.toISOString(),
    wake_at: end.wakeAt?.toISOString() ?? null,
    wake_after: end.wakeAfter,
    waiting_for: end.waitingFor,
    wait_event: end.waitEvent,
    wait_key: end.waitKey,
  }));
  await ctx.db.execute(sql`
    update journey_entries e set step_key = m.step_key, state = m.state, step_since = m.step_since,
      wake_at = coalesce(m.wake_at, ${at} + m.wake_after::interval), waiting_for = m.waiting_for,
      wait_event = m.wait_event, wait_key = m.wait_key,
      exited_at = case when m.state = 'exited' then coalesce(e.exited_at, ${at}) else e.exited_at end
    from jsonb_to_recordset(${JSON.stringify(ends)}::jsonb) as m(project_id uuid, id uuid, step_key text, state text,
      step_since timestamptz, wake_at timestamptz, wake_after text, waiting_for jsonb, wait_event text, wait_key text)
    where e.project_id = m.project_id and e.id = m.id`);
  const ids = uuidv7s(moves.reduce((n, m) => n + m.path.length, 0));
  let next = 0;
  const rows = moves.flatMap(({ entry: e, path }) =>
    path.map((p, i) => ({
      id: ids[next++],
      project_id: e.projectId,
      entry_id: e.id,
      user_id: e.userId,
      journey_id: e.journeyId,
      ord: i + 1,
      step_key: p.stepKey,
      kind: p.kind,
      entered_at: p.enteredAt.toISOString(),
      left_at: p.leftAt.toISOString(),
      outcome: p.outcome,
    })),
  );
  if (rows.length)
    // Each entry's rows follow its last one: the subquery reads the path as it was before this statement.
    // The ids come with the rows (lib/db/uuidv7.ts): the column's uuid_generate_v7() default, called
    // per row, was most of this statement's executor time (docs/decisions/0025).
    await ctx.db.execute(sql`
      insert into journey_entry_steps (id, project_id, entry_id, user_id, seq, journey_id, step_key, kind, entered_at, left_at, outcome)
      select p.id, p.project_id, p.entry_id, p.user_id,
        coalesce((select max(s.seq) from journey_entry_steps s where s.project_id = p.project_id and s.entry_id = p.entry_id), 0) + p.ord,
        p.journey_id, p.step_key, p.kind, p.entered_at, p.left_at, p.outcome
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as p(id uuid, project_id uuid, entry_id uuid, user_id uuid, journey_id uuid, ord int,
        step_key text, kind text, entered_at timestamptz, left_at timestamptz, outcome text)`);
  const byProject = new Map<string, Move[]>();
  for (const m of moves) {
    if (m.end.state !== "exited") continue;
    const exited = byProject.get(m.entry.projectId);
    if (exited) exited.push(m);
    else byProject.set(m.entry.projectId, [m]);
  }
  // The exits' events go to `events` and straight on to steps 2-4 in this transaction (bypassIntake), as
  // the firing loop's do: a trip through `event_intake` and the drain would cost each exit two more
  // writes and a claim, and a burst of due entries is mostly exits (docs/decisions/0025).
  for (const [projectId, exited] of byProject) {
    const pctx = systemContext(ctx.db, projectId);
    await bypassIntake(pctx, () =>
      recordSystemEvents(
        pctx,
        exited.map(({ entry: e }) => ({
          name: "journey.user.exited" as const,
          userId: e.userId,
          data: { journey_id: e.journeyId, journey_name: e.journeyName, entry_id: e.id, event_id: e.eventId },
        })),
      ),
    );
  }
  if (rows.length) await countPasses(ctx, rows, shard ?? Math.floor(Math.random() * PASS_SHARDS));
}

/** Shards of each step's "passed" count that batches add to (any one of them): see countPasses. */
const PASS_SHARDS = 8;

/**
 * Adds the steps passed to their journeys' per-step counts (journey_step_passes), the transaction's last
 * statement so the counters' row locks are held only until its commit. The batch adds to one random
 * shard in key order, so two claimers rarely wait for each other and never in a cycle. An edit passes its
 * own shard (-1): it holds the journey's lock, and a pipeline step that holds a shard's counter may be
 * waiting for that lock to enter users.
 */
async function countPasses(
  ctx: AppContext,
  rows: { project_id: string; journey_id: string; step_key: string }[],
  shard: number,
): Promise<void> {
  const counts = new Map<string, { project_id: string; journey_id: string; step_key: string; n: number }>();
  for (const r of rows) {
    const k = `${r.project_id}/${r.journey_id}/${r.step_key}`;
    const c = counts.get(k);
    if (c) c.n++;
    else counts.set(k, { project_id: r.project_id, journey_id: r.journey_id, step_key: r.step_key, n: 1 });
  }
  await ctx.db.execute(sql`
    insert into journey_step_passes (project_id, journey_id, step_key, shard, passed)
    select c.project_id, c.journey_id, c.step_key, ${shard}, c.n
    from jsonb_to_recordset(${JSON.stringify([...counts.values()])}::jsonb) as c(project_id uuid, journey_id uuid, step_key text, n int)
    order by 1, 2, 3
    on conflict (project_id, journey_id, step_key, shard) do update set passed = journey_step_passes.passed + excluded.passed`);
}
