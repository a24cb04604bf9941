import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { inRetryingTransaction } from "@/lib/db/retry";
import { enqueue } from "@/lib/queue/enqueue";
import { moveOffRemovedSteps } from "./move-off-removed-steps";
import { EDITED_ENTRY_COLUMNS, type EditedEntry, rekeyWaits } from "./rekey-waits";
import type { Step } from "./step-schema";

/** Entries brought in line per transaction: each batch's locks and statements stay small. */
export const STEP_EDIT_BATCH = 1000;
/** A job hands the rest to a job of its own after this long, so none runs into pg-boss's expiry. */
const JOB_BUDGET_MS = 60_000;

interface PendingEdit {
  id: string;
  before: Step[];
  keys: string[];
  cursor_key: string | null;
  cursor_id: string | null;
}

/**
 * The worker's side of an edit of a live journey's steps (recorded by record-step-edit.ts): its pending
 * edits, oldest first, each applied to the entries at the keys it concerns in pages of entry ids per key,
 * one transaction per page holding the journey's lock (as the edit did): entries at a removed step move
 * on (move-off-removed-steps.ts), entries waiting at a changed wait are re-keyed and those at a wait that
 * became another kind are made due (rekey-waits.ts), always to the steps as they are now. Each page
 * commits the edit's cursor with it, and the last page deletes the edit, so a retried job goes on where
 * the last one stopped and a page applied twice changes nothing.
 */
export async function applyStepEdits(
  ctx: ProjectContext<Db>,
  { journeyId, batchSize, budgetMs }: { journeyId: string; batchSize?: number; budgetMs?: number },
): Promise<number> {
  const size = batchSize ?? STEP_EDIT_BATCH;
  const until = Date.now() + (budgetMs ?? JOB_BUDGET_MS);
  let total = 0;
  for (;;) {
    // Run again on a deadlock: the pipeline's journeys step locks a user's entries, then the journey.
    const page = await inRetryingTransaction(ctx.db, (tx) => applyPage({ ...ctx, db: tx }, journeyId, size));
    if (page === null) return total;
    total += page;
    if (Date.now() > until) {
      await enqueue(ctx.db, "journeys.apply-edits", [{ projectId: ctx.projectId, journeyId }]);
      return total;
    }
  }
}

/** One page of the oldest pending edit; null when the journey has none left (or is gone). */
async function applyPage(ctx: ProjectContext, journeyId: string, size: number): Promise<number | null> {
  // The edit's lock order: the journey, then its entries; an edit of the steps (and another page) waits
  // for the page. Not FOR UPDATE, which would hold up the journey's other entries meanwhile: an entry
  // updated twice in one transaction (the pipeline's catch-up, then its release) checks its foreign key to
  // the journey on the second update, with KEY SHARE.
  const [journey] = await queryRows<{ name: string; steps: Step[] }>(
    ctx.db,
    sql`select name, steps from journeys where project_id = ${ctx.projectId}::uuid and id = ${journeyId}::uuid for no key update`,
  );
  if (!journey) return null;
  const [edit] = await queryRows<PendingEdit>(
    ctx.db,
    sql`
    select id, before, keys, cursor_key, cursor_id from journey_edits
    where project_id = ${ctx.projectId}::uuid and journey_id = ${journeyId}::uuid
    order by id limit 1`,
  );
  if (!edit) return null;
  const keys = edit.keys;
  const key = edit.cursor_key ?? keys[0]!;
  // A page of one key's entries in id order, on journey_entries_step_idx: never a sort of the step's entries.
  const rows = await queryRows<EditedEntry>(
    ctx.db,
    sql`
    select ${EDITED_ENTRY_COLUMNS} from journey_entries e
    where e.project_id = ${ctx.projectId}::uuid and e.journey_id = ${journeyId}::uuid and e.step_key = ${key}
      ${edit.cursor_id ? sql`and e.id > ${edit.cursor_id}::uuid` : sql``}
    order by e.id
    limit ${size}
    for update of e`,
  );
  const moved = await moveOffRemovedSteps(ctx, {
    journeyId,
    journeyName: journey.name,
    before: edit.before,
    steps: journey.steps,
    rows,
  });
  const changed = await rekeyWaits(ctx, { steps: journey.steps, rows });
  const nextKey = keys[keys.indexOf(key) + 1];
  if (rows.length === size)
    await ctx.db.execute(sql`
      update journey_edits set cursor_key = ${key}, cursor_id = ${rows[rows.length - 1]!.id}::uuid
      where project_id = ${ctx.projectId}::uuid and id = ${edit.id}::uuid`);
  else if (nextKey !== undefined)
    await ctx.db.execute(sql`
      update journey_edits set cursor_key = ${nextKey}, cursor_id = null
      where project_id = ${ctx.projectId}::uuid and id = ${edit.id}::uuid`);
  else
    await ctx.db.execute(
      sql`delete from journey_edits where project_id = ${ctx.projectId}::uuid and id = ${edit.id}::uuid`,
    );
  return moved + changed;
}
