import { sql } from "drizzle-orm";
import type { ReportMetric, ReportScope } from "@/db/schema";
import type { AppContext } from "@/lib/access/context";
import { upsertRollups } from "./rollup-rows";

/** One count for one scope that is not a message's own (a split's entries): where, what, when. */
export interface ScopeCount {
  project_id: string;
  scope: ReportScope;
  scope_id: string;
  metric: ReportMetric;
  at: string;
}

/**
 * Adds counts to `message_rollups` in the caller's transaction, merged in key order as
 * addMessageRollups does, so concurrent writers lock the rows in one order. All in shard 0: a split's
 * passages are written by the journey loop a batch at a time, never one hot row per request.
 */
export async function addScopeRollups(ctx: AppContext, counts: ScopeCount[]): Promise<void> {
  if (!counts.length) return;
  await ctx.db.execute(
    upsertRollups(sql`
    select c.project_id, c.scope, c.scope_id, c.metric, date_trunc('hour', c.at) as hour, 0::smallint as shard,
      count(*) as count, 0::float8 as value
    from jsonb_to_recordset(${JSON.stringify(counts)}::jsonb)
      as c(project_id uuid, scope text, scope_id text, metric text, at timestamptz)
    group by 1, 2, 3, 4, 5`),
  );
}

/** The rollup id of a split test's path: `<journey>/<step>/<path index>`. */
export const splitScopeId = (journeyId: string, stepKey: string, path: number) => `${journeyId}/${stepKey}/${path}`;
