import { sql } from "drizzle-orm";
import type { ReportMetric } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Rows per (scope, metric, hour), a power of two: a message's counts go to the shard its id hashes to,
 * so concurrent first opens and clicks of one broadcast (or one template, or the project) lock one row
 * in eight, not all the same one (db/schema/reports.ts).
 */
export const ROLLUP_SHARDS = 8;

/** One thing a message did, to be counted once: what, when, and (for conversions) its value. */
export interface MessageCount {
  id: string;
  metric: ReportMetric;
  at: Date | string;
  value?: number | null;
}

/**
 * Counts what messages did in `message_rollups`, in the caller's transaction, for every scope each
 * message belongs to: its project (the overview's hourly figures), its template, its broadcast, its
 * journey and the journey's send step. Callers count
 * a message's metric only when it first happens (a state that changed, a first-time column set), so a
 * repeated report counts nothing twice. Rows are merged in key order, so concurrent writers lock them in
 * the same order, each message's in its own shard.
 */
export async function addMessageRollups(ctx: ProjectContext, counts: MessageCount[]): Promise<void> {
  if (!counts.length) return;
  const rows = JSON.stringify(
    counts.map((c) => ({
      id: c.id,
      k: c.metric,
      at: typeof c.at === "string" ? c.at : c.at.toISOString(),
      v: c.value ?? 0,
    })),
  );
  await ctx.db.execute(sql`
    insert into message_rollups as r (project_id, scope, scope_id, metric, hour, shard, count, value)
    select ${ctx.projectId}::uuid, s.scope, s.scope_id, x.k, date_trunc('hour', x.at), hashtext(m.id::text) & ${sql.raw(String(ROLLUP_SHARDS - 1))},
      count(*), sum(x.v)
    from jsonb_to_recordset(${rows}::jsonb) as x(id uuid, k text, at timestamptz, v float8)
    join messages m on m.project_id = ${ctx.projectId}::uuid and m.id = x.id
    left join journey_entries e on m.journey_entry_id is not null
      and e.project_id = m.project_id and e.id = m.journey_entry_id
    cross join lateral (values
      ('project', m.project_id::text),
      ('template', m.template_id::text),
      ('broadcast', m.broadcast_id::text),
      ('journey', e.journey_id::text),
      ('step', e.journey_id::text || '/' || m.journey_step_key)
    ) as s(scope, scope_id)
    where s.scope_id is not null
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5, 6
    on conflict (project_id, scope, scope_id, metric, hour, shard)
      do update set count = r.count + excluded.count, value = r.value + excluded.value`);
}
