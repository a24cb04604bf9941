import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";

/** Finished messages kept per destination, and for how long (DESTINATION_LOG_DAYS, default 30). */
export const DELIVERIES_PER_DESTINATION = 10_000;
export const deliveryLogDays = (env = process.env) => Number(env.DESTINATION_LOG_DAYS ?? 30);

/** A message the log may prune: finished, or pending for a destination that is off (it sends nothing). */
const prunable = (x: string) =>
  sql.raw(`(${x}.state <> 'pending' or exists (select 1 from destinations d
    where d.project_id = ${x}.project_id and d.id = ${x}.destination_id and not d.enabled))`);

/**
 * Keeps the delivery log bounded (the worker's minute tick): finished messages older than the log's
 * days go, and each destination keeps only its newest DELIVERIES_PER_DESTINATION finished ones. Pending
 * messages of an enabled destination are never pruned (they are not delivered yet); those of a disabled
 * one count like finished ones, or a destination left off would pile up every event's message for good.
 * Attempts go with their message.
 */
export async function pruneDeliveries({ db }: AppContext<Db>): Promise<void> {
  await db.execute(sql`
    delete from destination_deliveries where ctid = any(array(
      select x.ctid from destination_deliveries x
      where ${prunable("x")} and x.created_at < now() - make_interval(days => ${deliveryLogDays()}::int) limit 10000))`);
  await db.execute(sql`
    delete from destination_deliveries dd using (
      select y.project_id, y.destination_id from destination_deliveries y where ${prunable("y")}
      group by y.project_id, y.destination_id having count(*) > ${DELIVERIES_PER_DESTINATION}
    ) over_bound, lateral (
      select x.id from destination_deliveries x where x.project_id = over_bound.project_id and x.destination_id = over_bound.destination_id
      order by x.id desc offset ${DELIVERIES_PER_DESTINATION - 1} limit 1
    ) cutoff
    where dd.project_id = over_bound.project_id and dd.destination_id = over_bound.destination_id
      and dd.id < cutoff.id and ${prunable("dd")}`);
}
