import { sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { log } from "@/lib/observability/logger";
import { EVENT_ROW_PATH } from "@/lib/pipeline/discover-schema";
import { type EventPartition, LOCK_TIMEOUT, listEventPartitions, tryPartitionLock } from "./partitions";

/** Rows one delete statement removes: a short transaction, so it never holds locks for long. */
export const PURGE_BATCH = Number(process.env.RETENTION_BATCH ?? 5000);

export interface PurgeResult {
  /** Partitions dropped whole. */
  dropped: string[];
  /** Rows deleted in batches. */
  deleted: number;
}

type Holder = { id: string; days: number | null };

/**
 * Removes expired events: those whose `occurred_at` (the client's timestamp, else the receipt) is older
 * than their project's `event_retention_days` (null keeps them forever). A partition whose every project
 * has passed it is dropped whole (DETACH, then DROP: its disk space comes back at once); in any other
 * partition a project's expired rows go in batches of PURGE_BATCH, each its own short transaction. The
 * schema's counts and the overview's counters lose what was removed, in the same transaction, so they
 * stay true. Safe to run from several workers: partition changes take one advisory lock, and a batch
 * deletes rows by their address under the row locks it holds.
 */
export async function purgeExpiredEvents(
  ctx: AppContext<Db>,
  opts: { batch?: number; stopping?: () => boolean } = {},
): Promise<PurgeResult> {
  const { db } = ctx;
  const batch = opts.batch ?? PURGE_BATCH;
  const result: PurgeResult = { dropped: [], deleted: 0 };
  const retaining = await db.execute<Holder>(
    sql`select id, event_retention_days as days from projects where event_retention_days is not null`,
  );
  if (!retaining.length) return result;
  for (const part of await listEventPartitions(ctx)) {
    if (opts.stopping?.()) break;
    const table = sql`${sql.identifier(part.name)}`;
    // Whole partitions first: possible only when its end is past, and no project keeps any of its rows.
    if (!part.isDefault && part.to && part.to.getTime() <= Date.now()) {
      const [keeper] = await db.execute<{ id: string }>(sql`
        select p.id from projects p
        where (p.event_retention_days is null or ${part.to.toISOString()}::timestamptz > now() - make_interval(days => p.event_retention_days))
          and exists (select 1 from ${table} e where e.project_id = p.id)
        limit 1`);
      if (!keeper && (await dropPartition(db, part))) {
        result.dropped.push(part.name);
        continue;
      }
    }
    for (const p of retaining) {
      if (part.from && part.from.getTime() >= Date.now() - p.days! * 86_400_000) continue;
      for (;;) {
        if (opts.stopping?.()) break;
        const n = await deleteBatch(db, table, p, batch);
        result.deleted += n;
        if (n < batch) break;
      }
    }
  }
  for (const p of retaining)
    await db.execute(sql`
      delete from project_rollups where project_id = ${p.id}::uuid and metric like 'events.%'
        and minute < now() - make_interval(days => ${p.days}::int) - interval '1 minute'`);
  if (result.dropped.length || result.deleted) log.info(result, "retention: expired events removed");
  return result;
}

/**
 * One batch of one project's expired rows in one partition, by address (a TID scan of rows found on the
 * partition's (project_id, occurred_at) index), with the schema's counts lowered in the same statement.
 */
async function deleteBatch(db: Db, table: SQL, p: Holder, batch: number): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`
    with gone as (
      delete from ${table} where ctid = any(array(
        select ctid from ${table} where project_id = ${p.id}::uuid
          and occurred_at < now() - make_interval(days => ${p.days}::int)
        limit ${batch} for update skip locked))
      returning name
    ), per_name as (select name, count(*) as n from gone group by name),
    lowered as (${lowerSchemaCounts(sql`${p.id}::uuid`)})
    select coalesce(sum(n), 0)::int as n from per_name`);
  return row?.n ?? 0;
}

/**
 * An UPDATE lowering `event_schema` by `per_name(name, n)` of one project: the event rows exactly, each
 * property path to at most its event's new count (which events carried a path is not kept per event).
 */
function lowerSchemaCounts(projectId: SQL): SQL {
  return sql`update event_schema s set count = case when s.path = ${EVENT_ROW_PATH} then greatest(e.count - c.n, 0)
        else least(s.count, greatest(e.count - c.n, 0)) end
      from per_name c, event_schema e
      where s.project_id = ${projectId} and s.event_name = c.name
        and e.project_id = ${projectId} and e.event_name = c.name and e.path = ${EVENT_ROW_PATH}
      returning 1`;
}

/**
 * Drops a partition no project keeps: DETACH (not CONCURRENTLY: PostgreSQL refuses that while a default
 * partition exists) waits at most LOCK_TIMEOUT for writers, so it never stalls ingestion for longer; the
 * schema's counts lose the partition's rows and the table is dropped in the same transaction.
 */
async function dropPartition(db: Db, part: EventPartition): Promise<boolean> {
  const table = sql`${sql.identifier(part.name)}`;
  try {
    return await db.transaction(async (tx) => {
      if (!(await tryPartitionLock({ db: tx }))) return false;
      await tx.execute(sql`select set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`);
      await tx.execute(sql`alter table events detach partition ${table}`);
      await lowerForTable(tx, table);
      await tx.execute(sql`drop table ${table}`);
      return true;
    });
  } catch (err) {
    log.warn(
      { err, partition: part.name },
      "retention: partition not dropped this time (lock wait); retrying next run",
    );
    return false;
  }
}

async function lowerForTable(tx: DbOrTx, table: SQL) {
  const projects = await tx.execute<{ project_id: string }>(sql`select distinct project_id from ${table}`);
  for (const { project_id } of projects)
    await tx.execute(sql`
      with per_name as (select name, count(*) as n from ${table} where project_id = ${project_id}::uuid group by name),
      lowered as (${lowerSchemaCounts(sql`${project_id}::uuid`)})
      select count(*) from lowered`);
}
