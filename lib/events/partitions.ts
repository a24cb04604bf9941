import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";

/**
 * The partitions of `events` (partitioned by range of `occurred_at`; migration events_partitioned):
 * `events_before` (everything before the week the partitioning started), one `events_pYYYYMMDD` per
 * week from Monday 00:00 UTC, and `events_default` for any time without a partition of its own (a week
 * not created yet, or dropped by retention), so an insert never fails for want of a partition. The
 * worker keeps EVENT_PARTITION_WEEKS_AHEAD weeks ahead of now and moves rows that reached the default
 * partition into their week's partition when it creates it ("on demand").
 */
export const WEEKS_AHEAD = Number(process.env.EVENT_PARTITION_WEEKS_AHEAD ?? 4);
/** Weeks taken out of the default partition per run (each is one short transaction). */
const ON_DEMAND_PER_RUN = 20;
/** A partition change waits at most this long for its lock, then gives way to the writers and retries later. */
const LOCK_TIMEOUT = "2s";
/** Serialises partition changes across workers (transaction-scoped advisory lock). */
const PARTITION_LOCK = 727_275;

export interface EventPartition {
  name: string;
  /** Inclusive lower bound; null for MINVALUE (and for the default partition). */
  from: Date | null;
  /** Exclusive upper bound; null for the default partition. */
  to: Date | null;
  isDefault: boolean;
}

/** Every partition of `events` with its bounds, oldest first, the default last. */
export async function listEventPartitions(ctx: AppContext): Promise<EventPartition[]> {
  const rows = await ctx.db.execute<{ name: string; from: string | null; to: string | null; is_default: boolean }>(sql`
    select c.relname as name, b.expr = 'DEFAULT' as is_default,
      to_char((regexp_match(b.expr, 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "from",
      to_char((regexp_match(b.expr, 'TO \\(''([^'']+)''\\)'))[1]::timestamptz at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "to"
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    cross join lateral (select pg_get_expr(c.relpartbound, c.oid) as expr) b
    where i.inhparent = 'events'::regclass`);
  return rows
    .map((r) => ({
      name: r.name,
      from: r.from ? new Date(r.from) : null,
      to: r.to ? new Date(r.to) : null,
      isDefault: r.is_default,
    }))
    .sort((a, b) => (a.isDefault ? 1 : b.isDefault ? -1 : (a.to?.getTime() ?? 0) - (b.to?.getTime() ?? 0)));
}

/** Monday 00:00 UTC of the week holding `t`. */
export function weekStart(t: Date): Date {
  const d = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

export function partitionName(week: Date): string {
  return `events_p${week.toISOString().slice(0, 10).replace(/-/g, "")}`;
}

/**
 * Creates the weeks from now to WEEKS_AHEAD ahead that are missing, and the week of any row waiting in
 * the default partition (moving its rows there). Returns the partitions it created. Safe to run from any
 * number of workers at once: one does the work, the others find it done.
 */
export async function ensureEventPartitions(
  ctx: AppContext<Db>,
  { now = new Date(), weeksAhead = WEEKS_AHEAD }: { now?: Date; weeksAhead?: number } = {},
): Promise<string[]> {
  const parts = await listEventPartitions(ctx);
  const have = new Set(parts.map((p) => p.name));
  // Nothing is created below the first weekly bound: events_before covers everything earlier.
  const floor = parts.find((p) => p.from === null && !p.isDefault)?.to ?? new Date(0);
  const wanted: Date[] = [];
  for (let w = weekStart(now).getTime(), i = 0; i <= weeksAhead; i++, w += WEEK_MS)
    if (w >= floor.getTime()) wanted.push(new Date(w));
  // Rows beyond the horizon (a client clock years ahead) stay in the default partition until the horizon
  // reaches their week: creating weeks on a client's say would let one client make any number of tables.
  const horizon = new Date(weekStart(now).getTime() + (weeksAhead + 1) * WEEK_MS);
  const waiting = await ctx.db.execute<{ week: string }>(sql`
    select distinct to_char(date_trunc('week', occurred_at, 'UTC') at time zone 'UTC', 'YYYY-MM-DD"T"00:00:00"Z"') as week
    from events_default where occurred_at >= ${floor.toISOString()}::timestamptz and occurred_at < ${horizon.toISOString()}::timestamptz
    order by 1 limit ${ON_DEMAND_PER_RUN}`);
  wanted.push(...waiting.map((r) => new Date(r.week)));
  const created: string[] = [];
  for (const week of wanted) {
    const name = partitionName(week);
    if (have.has(name)) continue;
    if (await createWeekPartition(ctx, week)) created.push(name);
    have.add(name);
  }
  return created;
}

/**
 * One week's partition, in one transaction: made as a plain table, given the rows of its week that wait in
 * the default partition, then attached. ATTACH takes only SHARE UPDATE EXCLUSIVE on `events`, so writers
 * carry on; it checks the default partition holds nothing of the week (it does not: moved just before).
 */
export async function createWeekPartition(ctx: AppContext<Db>, week: Date): Promise<boolean> {
  const name = sql.identifier(partitionName(week));
  const from = week.toISOString();
  const to = new Date(week.getTime() + WEEK_MS).toISOString();
  return ctx.db.transaction(async (tx) => {
    const [lock] = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${PARTITION_LOCK}) as ok`);
    if (!lock?.ok) return false;
    await tx.execute(sql`select set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`);
    const [exists] = await tx.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_class where relname = ${partitionName(week)}`,
    );
    if (exists?.n) return false;
    await tx.execute(sql`create table ${name} (like events including defaults including constraints)`);
    await tx.execute(sql`
      with moved as (
        delete from events_default where occurred_at >= ${from}::timestamptz and occurred_at < ${to}::timestamptz returning *
      ) insert into ${name} select * from moved`);
    await tx.execute(
      sql.raw(`alter table events attach partition "${partitionName(week)}" for values from ('${from}') to ('${to}')`),
    );
    return true;
  });
}

/** The partition lock, for the retention purge's DETACH (one partition change at a time). */
export async function tryPartitionLock(ctx: AppContext): Promise<boolean> {
  const [lock] = await ctx.db.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${PARTITION_LOCK}) as ok`);
  return !!lock?.ok;
}

export { LOCK_TIMEOUT };
