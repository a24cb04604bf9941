import { sql } from "drizzle-orm";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { addScopeRollups, splitScopeId } from "./add-scope-rollups";

/** An entry passing a split step, as the walk decided it (write-moves.ts hands them over). */
export interface SplitPassage {
  project_id: string;
  entry_id: string;
  journey_id: string;
  user_id: string;
  step_key: string;
  path: number;
}

/**
 * Records each entry's first passage of each split (journey_split_entries) and counts it as `entered`
 * on its path (`split` rollups), in the walk's transaction: a retried claim or a loop back through the
 * split records nothing twice. Answers the splits that gained entries, for their tests' looks.
 */
export async function recordSplitPassages(
  ctx: AppContext,
  passages: SplitPassage[],
): Promise<{ project_id: string; journey_id: string; step_key: string }[]> {
  if (!passages.length) return [];
  const added = await queryRows<{ project_id: string; journey_id: string; step_key: string; path: number; at: string }>(
    ctx.db,
    sql`
    insert into journey_split_entries (project_id, entry_id, step_key, journey_id, user_id, path, entered_at)
    -- The transaction's time, as its messages' created_at: a message of a send step after the split in
    -- the same walk is then never "before" the passage (the walk's clock is the process's, a little later).
    select x.project_id, x.entry_id, x.step_key, x.journey_id, x.user_id, x.path, now()
    from jsonb_to_recordset(${JSON.stringify(passages)}::jsonb)
      as x(project_id uuid, entry_id uuid, journey_id uuid, user_id uuid, step_key text, path int)
    order by 1, 2, 3
    on conflict do nothing
    returning project_id, journey_id, step_key, path, entered_at::text as at`,
  );
  await addScopeRollups(
    ctx,
    added.map((r) => ({
      project_id: r.project_id,
      scope: "split",
      scope_id: splitScopeId(r.journey_id, r.step_key, r.path),
      metric: "entered",
      at: r.at,
    })),
  );
  const splits = new Map(added.map((r) => [`${r.project_id}/${r.journey_id}/${r.step_key}`, r]));
  return [...splits.values()].map(({ project_id, journey_id, step_key }) => ({ project_id, journey_id, step_key }));
}
