import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";

/** Requests kept per API key, and for how long. */
export const REQUESTS_PER_KEY = 1000;
export const REQUEST_LOG_DAYS = 7;

/**
 * Keeps the request log bounded (the worker's minute tick): nothing older than 7 days, and only the last
 * 1,000 requests of each key. Also forgets overview counters older than 30 days.
 */
export async function pruneRequestLog({ db }: AppContext<Db>): Promise<void> {
  await db.execute(sql`delete from api_requests where at < now() - make_interval(days => ${REQUEST_LOG_DAYS}::int)`);
  // Only keys over the bound are ranked; each key's rows are read newest first, backward along api_requests_key_idx.
  await db.execute(sql`
    delete from api_requests a using (
      select project_id, key_id from api_requests group by project_id, key_id having count(*) > ${REQUESTS_PER_KEY}
    ) over_bound, lateral (
      select r.at from api_requests r where r.project_id = over_bound.project_id and r.key_id = over_bound.key_id
      order by r.at desc offset ${REQUESTS_PER_KEY - 1} limit 1
    ) cutoff
    where a.project_id = over_bound.project_id and a.key_id = over_bound.key_id and a.at < cutoff.at`);
  await db.execute(sql`delete from project_rollups where minute < now() - interval '30 days'`);
}
