import { type SQL, sql } from "drizzle-orm";
import { systemContext, type AppContext, type ProjectContext } from "@/lib/access/context";
import { uuidv7s } from "@/lib/db/uuidv7";
import { addToOpenBatch, systemEventsSql } from "@/lib/events/record-system-events";
import { queryRows, uuidArray } from "@/lib/db/sql";
import { bypassIntake } from "@/lib/pipeline/enqueue-steps";
import { recordSplitPassages } from "@/lib/reports/record-split-passages";
import { decideSplitsPassed } from "@/lib/reports/split-test";
import type { EntryEnd, EntryInHand, PathRow } from "./walk";

/** An entry and where its walk took it. */
export interface WalkedMove {
  entry: EntryInHand;
  path: PathRow[];
  end: EntryEnd;
}

/** An entry that stood where `sameAs`'s entry stood and walks as it did (walk-alike.ts), with its own start. */
export interface SharedMove {
  entry: EntryInHand;
  sameAs: WalkedMove;
}

export type Move = WalkedMove | SharedMove;

/** The walk a move follows: its own, or the one it shares. */
export function walkOf(m: Move): WalkedMove {
  return "sameAs" in m ? m.sameAs : m;
}

/**
 * Writes walked entries in the caller's transaction, set-based whatever their number, in one statement
 * per project: each entry's new place and state, the steps it passed appended to its path, and one
 * `journey.user.exited` per entry that ended (recorded and handed to steps 2-4 in this transaction, as
 * the firing loop's events are); then the per-step counts. With the effects the walk ran in the same
 * transaction, a step's effect and the move past it commit together or not at all.
 *
 * What the walk decided is sent once per shape, not once per entry: the moves of a batch are mostly
 * alike (a delay's end, then an exit, with the same outcome at the same instant), so each distinct
 * shape (the path's steps and outcomes, the end) travels once and each entry as its id, its shape's
 * number and the time it came to its step; the path rows and the exits' events are made in SQL from
 * them and the entries' own columns. Before, every path row and event went as JSON (about 1.5 MB a
 * batch of 1,000), which was about half of a due batch's time (docs/decisions/0025).
 */
export async function writeMoves(
  ctx: AppContext,
  { moves, now, shard }: { moves: Move[]; now: Date; shard?: number },
): Promise<void> {
  if (!moves.length) return;
  const byProject = new Map<string, Move[]>();
  for (const m of moves) {
    const list = byProject.get(m.entry.projectId);
    if (list) list.push(m);
    else byProject.set(m.entry.projectId, [m]);
  }
  for (const [projectId, list] of byProject) await writeProjectMoves(systemContext(ctx.db, projectId), list, now);
  // Split passages feed their paths' reports and tests (lib/reports): a split is walked per entry (walk.ts).
  const passages = moves.flatMap((m) =>
    walkOf(m).path.flatMap((p) =>
      p.splitPath === undefined
        ? []
        : [
            {
              project_id: m.entry.projectId,
              entry_id: m.entry.id,
              journey_id: m.entry.journeyId,
              user_id: m.entry.userId,
              step_key: p.stepKey,
              path: p.splitPath,
            },
          ],
    ),
  );
  await decideSplitsPassed(ctx, await recordSplitPassages(ctx, passages));
  // Entries that share a walk are counted by it: one pass over its path, not one per entry.
  const walks = new Map<WalkedMove, number>();
  for (const m of moves) {
    const walk = walkOf(m);
    walks.set(walk, (walks.get(walk) ?? 0) + 1);
  }
  await countPasses(ctx, { walks, shard });
}

/** A walk's result with the entry taken out: what entries moved alike share. Times null: the entry's own. */
export interface Shape {
  journey_id: string;
  journey_name: string;
  rows: { step_key: string; kind: string; outcome: string; entered_at: string | null; left_at: string }[];
  step_key: string | null;
  state: EntryEnd["state"];
  step_since: string | null;
  wake_at: string | null;
  wake_after: string | null;
  waiting_for: Record<string, unknown> | null;
  wait_event: string | null;
  wait_key: string | null;
}

/**
 * The shape of a walk: its path and end, with each time that is the entry's own (the first step's start
 * and, with no step passed, the end's `step_since`: the time it came to its step) left null, for SQL to
 * fill in from each entry's `since`; so entries that share a walk share its shape.
 */
export function shapeOf({ entry, path, end }: WalkedMove): Shape {
  const since = entry.stepSince.getTime();
  return {
    journey_id: entry.journeyId,
    journey_name: entry.journeyName,
    rows: path.map((p, i) => ({
      step_key: p.stepKey,
      kind: p.kind,
      outcome: p.outcome,
      entered_at: i === 0 && p.enteredAt.getTime() === since ? null : p.enteredAt.toISOString(),
      left_at: p.leftAt.toISOString(),
    })),
    step_key: end.stepKey,
    state: end.state,
    step_since: path.length ? end.stepSince.toISOString() : null,
    wake_at: end.wakeAt?.toISOString() ?? null,
    wake_after: end.wakeAfter,
    waiting_for: end.waitingFor,
    wait_event: end.waitEvent,
    wait_key: end.waitKey,
  };
}

/** One project's moves in one statement (see writeMoves). */
async function writeProjectMoves(ctx: ProjectContext, moves: Move[], now: Date): Promise<void> {
  const shapes: Shape[] = [];
  const shapeNo = new Map<string, number>();
  const walkShape = new Map<WalkedMove, number>();
  const ids: string[] = [];
  const nos: number[] = [];
  const sinces: string[] = [];
  const exits: number[] = [];
  let pathRows = 0;
  for (const m of moves) {
    const walk = walkOf(m);
    let no = walkShape.get(walk);
    if (no === undefined) {
      const shape = shapeOf(walk);
      const key = JSON.stringify(shape);
      no = shapeNo.get(key);
      if (no === undefined) {
        no = shapes.push(shape) - 1;
        shapeNo.set(key, no);
      }
      walkShape.set(walk, no);
    }
    ids.push(m.entry.id);
    nos.push(no);
    sinces.push(m.entry.stepSince.toISOString());
    pathRows += walk.path.length;
    if (walk.end.state === "exited") exits.push(no);
  }
  // Ids made in the process (lib/db/uuidv7.ts): the column's uuid_generate_v7() default, called per row,
  // was most of the path insert's executor time (docs/decisions/0025). Path row k of the batch (entries
  // in order, each one's rows in order) takes the k-th; the exits' events take theirs likewise.
  const pathIds = uuidv7s(pathRows);
  const eventIds = uuidv7s(exits.length);
  const moving = sql`m as materialized (
        select x.id, x.no, x.since, x.n
        from unnest(${uuidArray(ids)}, ${`{${nos.join(",")}}`}::int[], ${`{${sinces.join(",")}}`}::timestamptz[])
          with ordinality as x(id, no, since, n)
      )`;
  // By key probe, one per entry: the entries are this transaction's (claimed or locked by the caller).
  const target = sql`e.project_id = ${ctx.projectId}::uuid and e.id = m.id`;
  await moveEntries(ctx, { moving, target, shapes, pathIds, eventIds, now, exits: () => exits });
}

/**
 * The one statement that moves entries (see writeMoves): `moving` defines the CTE `m` of the entries
 * moved (id, shape number `no`, the time it came to its step `since`, place `n`, and whatever `target`
 * uses to find its row), whose rows are this transaction's. Path row k of the batch and exit event k take
 * the k-th of `pathIds` and `eventIds` (there may be more than are used). `exits` lists the shape number of
 * each exit, in order, once the statement has run (it gets how many entries it moved). Returns that number.
 */
export async function moveEntries(
  ctx: ProjectContext,
  input: {
    moving: SQL;
    target: SQL;
    shapes: Shape[];
    pathIds: string[];
    eventIds: string[];
    now: Date;
    exits: (moved: number) => number[];
  },
): Promise<number> {
  const { moving, target, shapes, pathIds, eventIds, now } = input;
  const at = sql`${now.toISOString()}::timestamptz`;
  let moved = 0;
  await bypassIntake(ctx, async () => {
    const recording = systemEventsSql(ctx);
    const samples = await queryRows<{
      received_at: string;
      moved: number;
      no: number | null;
      data: Record<string, unknown> | null;
    }>(
      ctx.db,
      sql`
      with ${moving}, ids as materialized (
        -- Each array once: row k takes element k. A join with the arrays' unnest was planned as a nested loop
        -- over them whenever the rows joined were estimated few (a claim's), a scan of the array per row.
        select ${uuidArray(pathIds)} as path, ${uuidArray(eventIds)} as event
      ), shape as materialized (
        select (x.o - 1)::int as no, s.*
        from jsonb_array_elements(${JSON.stringify(shapes)}::jsonb) with ordinality as x(v, o)
        cross join lateral jsonb_to_record(x.v) as s(journey_id uuid, journey_name text, rows jsonb, step_key text,
          state text, step_since timestamptz, wake_at timestamptz, wake_after text, waiting_for jsonb, wait_event text,
          wait_key text)
      ), shape_row as materialized (
        select s.no, r.ord::int as ord, r.v->>'step_key' as step_key, r.v->>'kind' as kind, r.v->>'outcome' as outcome,
          (r.v->>'entered_at')::timestamptz as entered_at, (r.v->>'left_at')::timestamptz as left_at
        from shape s cross join lateral jsonb_array_elements(s.rows) with ordinality as r(v, ord)
      ), moved as (
        -- By key probe, one per entry: the entries are this transaction's (claimed or locked by the caller).
        update journey_entries e set step_key = s.step_key, state = s.state, step_since = coalesce(s.step_since, m.since),
          wake_at = coalesce(s.wake_at, ${at} + s.wake_after::interval), waiting_for = nullif(s.waiting_for, 'null'),
          wait_event = s.wait_event, wait_key = s.wait_key,
          exited_at = case when s.state = 'exited' then coalesce(e.exited_at, ${at}) else e.exited_at end
        from m join shape s on s.no = m.no
        where ${target}
        returning e.id, e.user_id, e.event_id
      ), last as materialized (
        -- Each moved entry's last path row (the path as it was before this statement), once per entry that
        -- passed a step, not once per row appended.
        select m.id, coalesce((select max(x.seq) from journey_entry_steps x where x.project_id = ${ctx.projectId}::uuid and x.entry_id = m.id), 0) as seq
        from m join shape s on s.no = m.no where jsonb_array_length(s.rows) > 0
      ), numbered as materialized (
        -- Each path row's place in the batch (entries in order, each one's rows in order), for its id.
        select m.id, m.since, mv.user_id, s.journey_id, l.seq + r.ord as seq, r.*, row_number() over (order by m.n, r.ord) as k
        from m join moved mv on mv.id = m.id join last l on l.id = m.id join shape s on s.no = m.no join shape_row r on r.no = m.no
      ), appended as (
        -- Each entry's rows follow its last one.
        insert into journey_entry_steps (id, project_id, entry_id, user_id, seq, journey_id, step_key, kind, entered_at, left_at, outcome)
        select (select path from ids)[p.k], ${ctx.projectId}::uuid, p.id, p.user_id, p.seq, p.journey_id, p.step_key, p.kind,
          coalesce(p.entered_at, p.since), p.left_at, p.outcome
        from numbered p
      ), input as materialized (
        select x.k::int as ord, (select event from ids)[x.k] as id, x.no, 'journey.user.exited' as name, x.user_id, null::uuid as organization_id, 'user' as kind,
          jsonb_build_object('journey_id', x.journey_id, 'journey_name', x.journey_name, 'entry_id', x.id, 'event_id', x.event_id) as data,
          null::timestamptz as occurred_at
        from (
          select m.id, m.no, mv.user_id, mv.event_id, s.journey_id, s.journey_name, row_number() over (order by m.n) as k
          from m join moved mv on mv.id = m.id join shape s on s.no = m.no where s.state = 'exited') x
      ), ${recording.ctes}
      -- One event's data per shape, standing for its events in the schema step (they differ only in
      -- values), as the firing loop hands over its groups: the data's one home is the statement above.
      select now()::text as received_at, (select count(*)::int from m) as moved, g.no, g.data
      from (select 1) one left join lateral (select distinct on (no) no, data from input order by no) g on true${recording.from}`,
    );
    const receivedAt = samples[0]!.received_at;
    moved = samples[0]!.moved;
    const sample = new Map(samples.map((g) => [g.no, g.data ?? {}]));
    addToOpenBatch(ctx, () =>
      input
        .exits(moved)
        .map((no, i) => ({ id: eventIds[i]!, name: "journey.user.exited", data: sample.get(no)!, receivedAt })),
    );
  });
  return moved;
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
export async function countPasses(
  ctx: AppContext,
  { walks, shard }: { walks: Map<WalkedMove, number>; shard?: number },
): Promise<void> {
  const counts = new Map<string, { project_id: string; journey_id: string; step_key: string; n: number }>();
  for (const [{ entry: e, path }, n] of walks)
    for (const p of path) {
      const k = `${e.projectId}/${e.journeyId}/${p.stepKey}`;
      const c = counts.get(k);
      if (c) c.n += n;
      else counts.set(k, { project_id: e.projectId, journey_id: e.journeyId, step_key: p.stepKey, n });
    }
  if (!counts.size) return;
  await ctx.db.execute(sql`
    insert into journey_step_passes (project_id, journey_id, step_key, shard, passed)
    select c.project_id, c.journey_id, c.step_key, ${shard ?? Math.floor(Math.random() * PASS_SHARDS)}, c.n
    from jsonb_to_recordset(${JSON.stringify([...counts.values()])}::jsonb) as c(project_id uuid, journey_id uuid, step_key text, n int)
    order by 1, 2, 3
    on conflict (project_id, journey_id, step_key, shard) do update set passed = journey_step_passes.passed + excluded.passed`);
}
