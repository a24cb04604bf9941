import { type SQL, sql } from "drizzle-orm";

/**
 * One statement that adds counts to the hourly rollups and to the daily ones (db/schema/reports.ts), so
 * the two never disagree. `rows` is a query of (project_id, scope, scope_id, metric, hour, shard, count,
 * value) with `hour` truncated already; it may read a data-modifying CTE the caller put before it
 * (`prefix`, without its `with`). Both inserts go in key order, and the daily one reads the hourly one's
 * result so that it runs after it: every writer locks its hourly rows, then its daily rows, one order.
 */
export function upsertRollups(rows: SQL, prefix?: SQL): SQL {
  return sql`
    with ${prefix ? sql`${prefix}, ` : sql``}x as (${rows}), hourly as (
      insert into message_rollups as r (project_id, scope, scope_id, metric, hour, shard, count, value)
      select project_id, scope, scope_id, metric, hour, shard, count, value from x
      order by 1, 2, 3, 4, 5, 6
      on conflict (project_id, scope, scope_id, metric, hour, shard)
        do update set count = r.count + excluded.count, value = r.value + excluded.value
      returning 1
    )
    insert into message_rollups_daily as r (project_id, scope, scope_id, metric, day, shard, count, value)
    select project_id, scope, scope_id, metric, date_trunc('day', hour, 'UTC'), shard, sum(count), sum(value)
    from x where (select count(*) from hourly) >= 0
    group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
    on conflict (project_id, scope, scope_id, metric, day, shard)
      do update set count = r.count + excluded.count, value = r.value + excluded.value`;
}
