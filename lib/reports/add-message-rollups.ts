import { type SQL, sql } from "drizzle-orm";
import type { ReportMetric } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { upsertRollups } from "./rollup-rows";

/**
 * Rows per (scope, metric, hour): each write adds its counts to one shard picked at random, so concurrent
 * writers of one broadcast (or one template, or the project) lock one row in eight, not all the same one
 * (db/schema/reports.ts), and a write of many messages updates one row per scope and metric (a shard
 * per message had a sender's write of 20 outcomes update 48 rows, twice over with the daily ones).
 */
export const ROLLUP_SHARDS = 8;

/** The shard one write adds to. */
const writeShard = () => Math.floor(Math.random() * ROLLUP_SHARDS);

/** One thing a message did, to be counted once: what, when, and (for conversions) its value. */
export interface MessageCount {
  id: string;
  metric: ReportMetric;
  at: Date | string;
  value?: number | null;
  /**
   * Its message's scopes, when the caller read the message already and it is no journey's: the count then
   * needs no second read of the message (a journey's message is read for its entry's steps and paths).
   */
  message?: CountedMessage;
}

/** What a message outside journeys is counted under, besides its project. */
export interface CountedMessage {
  templateId: string;
  broadcastId: string | null;
  variant: number | null;
}

/**
 * Counts what messages did in `message_rollups`, in the caller's transaction, for every scope each
 * message belongs to: its project (the overview's hourly figures), its template, its broadcast, its
 * journey and the journey's send step. Callers count
 * a message's metric only when it first happens (a state that changed, a first-time column set), so a
 * repeated report counts nothing twice. Rows are merged in key order, so concurrent writers lock them in
 * the same order, in the write's one shard. Also the paths of the splits its entry passed before it
 * (`path`), its broadcast test's arm (`variant`), and a first open or click of the entry after a split
 * (`split`, the test's count).
 */
export async function addMessageRollups(ctx: ProjectContext, counts: MessageCount[]): Promise<void> {
  if (!counts.length) return;
  const known = counts.filter((c) => c.message);
  const read = counts.filter((c) => !c.message);
  // One statement, so that its rows are locked in key order whatever mix of counts it is given.
  const scoped: SQL[] = [];
  if (known.length) scoped.push(knownScopes(ctx, known));
  if (read.length) scoped.push(readScopes(ctx, read));
  await ctx.db.execute(
    upsertRollups(sql`
    select ${ctx.projectId}::uuid as project_id, s.scope, s.scope_id, s.k as metric, date_trunc('hour', s.at) as hour,
      ${writeShard()}::smallint as shard, count(*) as count, sum(s.v) as value
    from (${sql.join(scoped, sql` union all `)}) as s(scope, scope_id, k, at, v)
    where s.scope_id is not null
    group by 1, 2, 3, 4, 5, 6`),
  );
  // A split counts engagement by journey entry: the counts of messages outside journeys have none.
  const engaged = read.filter((c) => c.metric === "opened" || c.metric === "clicked");
  if (engaged.length) await countSplitEngagement(ctx, engaged);
}

/** The scopes of counts whose message the caller gave (MessageCount.message): from the counts alone. */
function knownScopes(ctx: ProjectContext, counts: MessageCount[]): SQL {
  const rows = JSON.stringify(
    counts.map((c) => ({
      k: c.metric,
      at: typeof c.at === "string" ? c.at : c.at.toISOString(),
      v: c.value ?? 0,
      t: c.message!.templateId,
      b: c.message!.broadcastId,
      vr: c.message!.variant,
    })),
  );
  return sql`select v.scope, v.scope_id, x.k, x.at, x.v
    from jsonb_to_recordset(${rows}::jsonb) as x(k text, at timestamptz, v float8, t uuid, b uuid, vr int)
    cross join lateral (values
      ('project', ${ctx.projectId}::text),
      ('template', x.t::text),
      ('broadcast', x.b::text),
      ('variant', x.b::text || '/' || case when x.vr < 0 then 'rest' else x.vr::text end)
    ) as v(scope, scope_id)`;
}

/** The scopes of counts read from their messages (and their journey entries' steps and split paths). */
function readScopes(ctx: ProjectContext, counts: MessageCount[]): SQL {
  const rows = JSON.stringify(
    counts.map((c) => ({
      id: c.id,
      k: c.metric,
      at: typeof c.at === "string" ? c.at : c.at.toISOString(),
      v: c.value ?? 0,
    })),
  );
  return sql`select s.scope, s.scope_id, x.k, x.at, x.v
    from jsonb_to_recordset(${rows}::jsonb) as x(id uuid, k text, at timestamptz, v float8)
    join messages m on m.project_id = ${ctx.projectId}::uuid and m.id = x.id
    left join journey_entries e on m.journey_entry_id is not null
      and e.project_id = m.project_id and e.id = m.journey_entry_id
    cross join lateral (
      select * from (values
        ('project', m.project_id::text),
        ('template', m.template_id::text),
        ('broadcast', m.broadcast_id::text),
        ('journey', e.journey_id::text),
        ('step', e.journey_id::text || '/' || m.journey_step_key),
        ('variant', m.broadcast_id::text || '/' || case when m.variant < 0 then 'rest' else m.variant::text end)
      ) as v(scope, scope_id)
      union all
      -- Each split path the entry took before the message: the path's funnel.
      select 'path', p.journey_id::text || '/' || p.step_key || '/' || p.path from journey_split_entries p
      where m.journey_entry_id is not null and p.project_id = m.project_id and p.entry_id = m.journey_entry_id
        and p.entered_at <= m.created_at
    ) as s(scope, scope_id)`;
}

/**
 * A split test counts entries, not messages: an entry's first person's open and first click of a message
 * sent after it passed a split count once on its path, whatever more it opens or clicks.
 */
async function countSplitEngagement(ctx: ProjectContext, counts: MessageCount[]): Promise<void> {
  const rows = JSON.stringify(
    counts.map((c) => ({ id: c.id, k: c.metric, at: typeof c.at === "string" ? c.at : c.at.toISOString() })),
  );
  await ctx.db.execute(
    upsertRollups(
      sql`select ${ctx.projectId}::uuid as project_id, 'split' as scope,
        journey_id::text || '/' || step_key || '/' || path as scope_id, k as metric, date_trunc('hour', at) as hour,
        ${writeShard()}::smallint as shard, count(*) as count, 0::float8 as value
      from first group by 3, 4, 5, 6`,
      sql`e as (
        select x.k, x.at, p.entry_id, p.step_key from jsonb_to_recordset(${rows}::jsonb) as x(id uuid, k text, at timestamptz)
        join messages m on m.project_id = ${ctx.projectId}::uuid and m.id = x.id and m.journey_entry_id is not null
        join journey_split_entries p on p.project_id = m.project_id and p.entry_id = m.journey_entry_id
          and p.entered_at <= m.created_at
      ), first as (
        update journey_split_entries p
          set opened_at = case when e.k = 'opened' then coalesce(p.opened_at, e.at) else p.opened_at end,
            clicked_at = case when e.k = 'clicked' then coalesce(p.clicked_at, e.at) else p.clicked_at end
        from e where p.project_id = ${ctx.projectId}::uuid and p.entry_id = e.entry_id and p.step_key = e.step_key
          and ((e.k = 'opened' and p.opened_at is null) or (e.k = 'clicked' and p.clicked_at is null))
        returning p.journey_id, p.entry_id, p.step_key, p.path, e.k, e.at
      )`,
    ),
  );
}
