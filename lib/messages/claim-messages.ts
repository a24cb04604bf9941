import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";

/**
 * Claims due queued messages of any project, oldest due first, with SKIP LOCKED so senders never share
 * one; the lease (longer than a provider call's timeout) makes a killed sender's messages due again after
 * `leaseSeconds`.
 */
export async function claimMessages(
  { db }: AppContext<Db>,
  { limit, leaseSeconds }: { limit: number; leaseSeconds: number },
) {
  return queryRows<{ project_id: string; id: string }>(
    db,
    sql`
    with picked as (
      select project_id, id from messages
      where state = 'queued' and next_attempt_at <= now() and (lease_until is null or lease_until < now())
      order by next_attempt_at limit ${limit} for update skip locked)
    update messages m set lease_until = now() + make_interval(secs => ${leaseSeconds})
    from picked p where m.project_id = p.project_id and m.id = p.id
    returning m.project_id, m.id`,
  );
}
