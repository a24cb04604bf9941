import { type SQL, sql } from "drizzle-orm";
import type { Transaction } from "@/db/client";
import { type AppContext, systemContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { uuidv7s } from "@/lib/db/uuidv7";
import { type DueRow, dueColumns, dueJourneys, entryOf } from "./due-entries";
import { walkForAll } from "./walk-alike";
import { countPasses, moveEntries, shapeOf } from "./write-moves";

/**
 * A burst: at least BURST_MIN of the BURST_PROBE first entries due at the first due entry's instant stand
 * where it stands (journey, step, state, thing awaited). Fewer, and the batch is claimed entry by entry
 * (advance-due.ts): a claim of a handful would cost a transaction of its own.
 */
const BURST_MIN = 100;
const BURST_PROBE = 200;

/**
 * Claims and moves a burst of due entries in one statement, as schedule firings are fired: the first due
 * entry is walked with its own fields and its effects refused (walkForAll), and if that walk is every
 * alike entry's, the entries due at its instant that stand where it stands are claimed (FOR UPDATE SKIP
 * LOCKED, up to `batchSize`) and moved by the moves' writer in the same statement: none of them travels
 * to the worker and back. The walk stays the one home of each step's rule: SQL copies its result, as
 * writeMoves does for entries that share a walk.
 *
 * Returns null when the batch is not a burst (or its walk depends on the entry, or other claimers hold every
 * entry of it): the caller claims it entry by entry. Runs with the caller's claim settings (sorting and
 * sequential scans off), so the claim walks the due index.
 */
export async function advanceBurst(
  { db: tx }: AppContext<Transaction>,
  { due, now, batchSize }: { due: SQL; now: Date; batchSize: number },
): Promise<{ claimed: number; exited: number } | null> {
  // The first due entry, read without a lock (only where it stands is used: the claim below takes whichever
  // entries stand there, this one or not), then its alike counted once. Locked, the read would pass over
  // every row another claimer holds, as the claim after it does again; and a count in the select list would
  // be made for each row passed over, each a scan of the instant.
  const [first] = await queryRows<DueRow & { alike: number }>(
    tx,
    sql`
    with first as materialized (
      select ${dueColumns}, e.wake_at as at
      from journey_entries e
      where ${due}
      order by e.wake_at
      limit 1
    )
    select f.*,
      (select count(*)::int from (
        select x.project_id, x.journey_id, x.step_key, x.state, x.waiting_for from journey_entries x
        where x.wake_at = f.at limit ${BURST_PROBE}) x
       where x.project_id = f.project_id and x.journey_id = f.journey_id and x.step_key is not distinct from f.step_key
         and x.state = f.state and x.waiting_for::text is not distinct from f.waiting_for) as alike
    from first f`,
  );
  if (!first) return { claimed: 0, exited: 0 };
  if (first.alike < Math.min(BURST_MIN, batchSize)) return null;
  const [journey] = await dueJourneys({ db: tx }, [first]);
  // A step an edit removed is left to the entry-by-entry claim, which knows whether the edit's pages will move it.
  if (!journey || (first.step_key !== null && !journey.steps.some((s) => s.key === first.step_key))) return null;
  const awaited = first.waiting_for === null ? null : (JSON.parse(first.waiting_for) as Record<string, unknown>);
  const walk = await walkForAll(entryOf(first, journey, awaited, null), journey.steps, now);
  if (!walk) return null;
  const exits = walk.end.state === "exited";
  const ctx = systemContext(tx, first.project_id);
  const moved = await moveEntries(ctx, {
    moving: sql`claimed as materialized (
        select e.ctid as tid, e.id, coalesce(e.step_since, e.entered_at) as since
        from journey_entries e
        where ${due} and e.wake_at = ${first.wake_at}::timestamptz and e.project_id = ${first.project_id}::uuid
          and e.journey_id = ${first.journey_id}::uuid and e.step_key is not distinct from ${first.step_key}::text
          and e.state = ${first.state} and e.waiting_for is not distinct from ${first.waiting_for}::jsonb
        order by e.wake_at
        limit ${batchSize}
        for update of e skip locked
      ), m as materialized (
        select c.tid, c.id, 0 as no, c.since, row_number() over () as n from claimed c
      )`,
    // By tid (a TID scan), as the firing loop marks its firings: the rows are locked by this statement.
    target: sql`e.ctid = m.tid`,
    shapes: [shapeOf(walk)],
    pathIds: uuidv7s(batchSize * walk.path.length),
    eventIds: exits ? uuidv7s(batchSize) : [],
    now,
    exits: (n) => (exits ? new Array<number>(n).fill(0) : []),
  });
  // Every entry standing there held by another claimer: the entry-by-entry claim looks past them.
  if (!moved) return null;
  await countPasses({ db: tx }, { walks: new Map([[walk, moved]]) });
  return { claimed: moved, exited: exits ? moved : 0 };
}
