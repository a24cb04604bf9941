import { sql } from "drizzle-orm";
import { applicationName, type Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { log } from "./logger";
import { metrics } from "./metrics";
import { readSystemState } from "./system-state";

/**
 * Refreshes the gauges read from the database, just before a scrape. A database that is down leaves the
 * previous values and logs once per scrape; the scrape itself still answers.
 */
export async function collectSystemGauges({ db }: AppContext<Db>, { poolMax }: { poolMax: number }): Promise<void> {
  metrics.dbPoolMax.set(poolMax);
  try {
    const s = await readSystemState({ db });
    metrics.intakeBacklog.set(s.intakeBacklog);
    metrics.intakeOldest.set(s.intakeOldestSeconds);
    metrics.intakeFailed.set(s.intakeSetAside);
    metrics.firingsDue.set(s.firingsDue);
    metrics.fanoutsOpen.set(s.fanoutsOpen);
    metrics.fanoutsOpenDelivered.set(s.fanoutsOpenDelivered);
    metrics.heartbeatAge.set(s.heartbeatAgeSeconds ?? -1);
    // Our own connections only: db/client.ts names them after this process's pid.
    const rows = await queryRows<{ state: string; n: number }>(
      db,
      sql`
      select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
      where application_name = ${applicationName()} group by 1`,
    );
    metrics.dbConnections.reset();
    for (const r of rows) metrics.dbConnections.set({ state: r.state }, r.n);
  } catch (err) {
    log.warn({ err }, "metrics: could not read the system gauges");
  }
}
