import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";

/** Finished messages kept per destination, and for how long (DESTINATION_LOG_DAYS, default 30). */
export const DELIVERIES_PER_DESTINATION = 10_000;
export const deliveryLogDays = (env = process.env) => Number(env.DESTINATION_LOG_DAYS ?? 30);

/**
 * Keeps the delivery log bounded (the worker's minute tick): finished messages older than the log's
 * days go, and each destination keeps only its newest DELIVERIES_PER_DESTINATION finished ones. Pending
 * messages of an enabled destination are never pruned (they are not delivered yet); a disabled one's go
 * like finished ones, or a destination left off would hold every message queued before it went off for
 * good. Attempts go with their message.
 */
export async function pruneDeliveries({ db }: AppContext<Db>): Promise<void> {
  await db.execute(sql`
    delete from destination_deliveries where ctid = any(array(
      select ctid from destination_deliveries
      where state <> 'pending' and created_at < now() - make_interval(days => ${deliveryLogDays()}::int) limit 10000))`);
  await db.execute(sql`
    delete from destination_deliveries dd using (
      select project_id, destination_id from destination_deliveries where state <> 'pending'
      group by project_id, destination_id having count(*) > ${DELIVERIES_PER_DESTINATION}
    ) over_bound, lateral (
      select x.id from destination_deliveries x where x.project_id = over_bound.project_id and x.destination_id = over_bound.destination_id
      order by x.id desc offset ${DELIVERIES_PER_DESTINATION - 1} limit 1
    ) cutoff
    where dd.project_id = over_bound.project_id and dd.destination_id = over_bound.destination_id
      and dd.id < cutoff.id and dd.state <> 'pending'`);
  // A disabled destination's pending messages: by age, then past the bound counting all it holds. Driven
  // by the few disabled destinations, so the statements read nothing of the enabled ones.
  await db.execute(sql`
    delete from destination_deliveries where ctid = any(array(
      select x.ctid from destinations d join destination_deliveries x on x.project_id = d.project_id and x.destination_id = d.id
      where not d.enabled and x.state = 'pending'
        and x.created_at < now() - make_interval(days => ${deliveryLogDays()}::int) limit 10000))`);
  await db.execute(sql`
    delete from destination_deliveries dd using destinations d, lateral (
      select x.id from destination_deliveries x where x.project_id = d.project_id and x.destination_id = d.id
      order by x.id desc offset ${DELIVERIES_PER_DESTINATION - 1} limit 1
    ) cutoff
    where not d.enabled and dd.project_id = d.project_id and dd.destination_id = d.id and dd.id < cutoff.id`);
}
