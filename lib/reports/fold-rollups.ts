import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";

/** Keys (scope, metric, hour or day) folded per transaction: a short hold on the rows it locks. */
export const FOLD_BATCH = 2_000;

const TABLES = {
  hourly: { table: "message_rollups", at: "hour", closed: sql`date_trunc('hour', now()) - interval '1 hour'` },
  daily: {
    table: "message_rollups_daily",
    at: "day",
    closed: sql`date_trunc('day', now() - interval '1 hour', 'UTC')`,
  },
} as const;

type Key = {
  project_id: string;
  scope: string;
  scope_id: string;
  metric: string;
  at: string;
  keep: number;
  drop: number[];
};

/**
 * Folds the shards of closed hours and days into one row each (marked `folded`): the shards exist so that
 * concurrent first opens of one broadcast do not queue behind one row while its hour is being written
 * (add-message-rollups.ts), and once the hour is past they only multiply the rows every report reads by
 * eight. A row written late to a closed hour (a conversion with a client timestamp) is a new shard that
 * the next run folds. Readers sum the shards of a key, so a report reads the same totals before, during
 * and after a fold.
 *
 * Per batch, one transaction: the keys' rows are locked in key order first (as every writer locks them,
 * rollup-rows.ts, so the two queue rather than deadlock), then exactly the locked rows other than the
 * one kept (the folded row, else the lowest shard) are deleted and their counts added to it, in one
 * statement: a count is moved, never copied or dropped, whatever writers do meanwhile (a writer's upsert
 * waits for the lock and, finding its row deleted, inserts a new shard, folded the next run). No row is
 * inserted and no key changed, so a fold takes no lock a writer could hold before it in key order. The hourly and the daily rows are folded in
 * transactions of their own, so a fold never holds one table's rows while it waits on the other's.
 * Answers the keys folded.
 */
export async function foldRollups(
  ctx: AppContext<Db>,
  opts: { batch?: number; maxBatches?: number } = {},
): Promise<number> {
  let folded = 0;
  for (const kind of ["hourly", "daily"] as const) {
    // Each batch starts at the period the last one reached: the partial index still holds the entries of
    // rows folded a moment ago (until a vacuum), which a scan from the start would walk again every batch.
    let from: string | null = null;
    for (let i = 0; i < (opts.maxBatches ?? Number.POSITIVE_INFINITY); i++) {
      const batch = await foldBatch(ctx, kind, opts.batch ?? FOLD_BATCH, from);
      folded += batch.keys;
      if (batch.keys === 0) break;
      from = batch.last;
    }
  }
  return folded;
}

async function foldBatch(
  ctx: AppContext<Db>,
  kind: keyof typeof TABLES,
  batch: number,
  from: string | null,
): Promise<{ keys: number; last: string | null }> {
  const { table: name, at: atName, closed } = TABLES[kind];
  const table = sql.identifier(name);
  const at = sql.identifier(atName);
  return ctx.db.transaction(async (tx) => {
    // The keys with an unfolded row in a closed period (the partial index of those), all their rows
    // locked in key order.
    const locked = await queryRows<Omit<Key, "keep" | "drop"> & { shard: number; folded: boolean }>(
      tx,
      sql`
      with k as (
        select distinct project_id, scope, scope_id, metric, ${at} as at from (
          select project_id, scope, scope_id, metric, ${at} from ${table}
          where not folded and ${at} < ${closed} and (${from}::timestamptz is null or ${at} >= ${from}::timestamptz)
          order by ${at} limit ${batch}) c
      )
      select r.project_id, r.scope, r.scope_id, r.metric, r.${at}::text as at, r.shard, r.folded
      from k join ${table} r on r.project_id = k.project_id and r.scope = k.scope and r.scope_id = k.scope_id
        and r.metric = k.metric and r.${at} = k.at
      order by r.project_id, r.scope, r.scope_id, r.metric, r.${at}, r.shard
      for update of r`,
    );
    const keys = new Map<string, Key>();
    for (const { shard, folded, ...r } of locked) {
      const id = `${r.project_id}\u0000${r.scope}\u0000${r.scope_id}\u0000${r.metric}\u0000${r.at}`;
      const k = keys.get(id);
      if (!k) keys.set(id, { ...r, keep: shard, drop: [] });
      else if (folded) {
        k.drop.push(k.keep);
        k.keep = shard;
      } else k.drop.push(shard);
    }
    if (!keys.size) return { keys: 0, last: null };
    await tx.execute(sql`
      with k as (
        select * from jsonb_to_recordset(${JSON.stringify([...keys.values()])}::jsonb)
          as k(project_id uuid, scope text, scope_id text, metric text, at timestamptz, keep smallint, drop smallint[])
      ), d as (
        delete from ${table} r using k
        where r.project_id = k.project_id and r.scope = k.scope and r.scope_id = k.scope_id
          and r.metric = k.metric and r.${at} = k.at and r.shard = any(k.drop)
        returning r.project_id, r.scope, r.scope_id, r.metric, r.${at} as at, r.count, r.value
      ), s as (
        select project_id, scope, scope_id, metric, at, sum(count) as count, sum(value) as value from d
        group by 1, 2, 3, 4, 5
      )
      update ${table} r set folded = true, count = r.count + coalesce(s.count, 0), value = r.value + coalesce(s.value, 0)
      from k left join s on s.project_id = k.project_id and s.scope = k.scope and s.scope_id = k.scope_id
        and s.metric = k.metric and s.at = k.at
      where r.project_id = k.project_id and r.scope = k.scope and r.scope_id = k.scope_id
        and r.metric = k.metric and r.${at} = k.at and r.shard = k.keep`);
    // The latest period of the batch (the same format for every row: one session's time zone).
    const last = locked
      .map((r) => r.at)
      .sort()
      .at(-1)!;
    return { keys: keys.size, last };
  });
}
