import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { fairShareCtes, type HeldCounts } from "@/lib/outbound/fair-share";

/**
 * Claims due queued messages, oldest due first within each project, with SKIP LOCKED so senders never
 * share one, and at most each project's fair share of the process's budget (lib/outbound/fair-share.ts):
 * one project's throttled broadcast holds only its part, and another project's message finds a slot.
 * The lease (renewed while the sender holds the message: renewMessageLeases) makes a killed sender's
 * messages due again after `leaseSeconds`.
 */
export async function claimMessages(
  { db }: AppContext<Db>,
  input: { held: HeldCounts; limit: number; maxInFlight: number; leaseSeconds: number },
) {
  const due = sql`select p.id as project_id, p.id::text as grp from projects p
    where exists (select 1 from messages m where m.project_id = p.id and m.state = 'queued'
      and m.next_attempt_at <= now() and (m.lease_until is null or m.lease_until < now()))`;
  return queryRows<{ project_id: string; id: string; share: number }>(
    db,
    sql`
    with ${fairShareCtes(input.held, due, {
      maxInFlight: input.maxInFlight,
      perGroup: input.maxInFlight,
      // An eighth of the budget kept for a project with none: a lone project uses the rest.
      keepFree: Math.max(1, Math.floor(input.maxInFlight / 8)),
      oneGroupPerProject: true,
    })},
    picked as (
      select x.project_id, x.id, r.share from room r cross join lateral (
        select m.project_id, m.id from messages m
        where m.project_id = r.project_id and m.state = 'queued' and m.next_attempt_at <= now()
          and (m.lease_until is null or m.lease_until < now())
        order by m.next_attempt_at limit r.k for update skip locked) x
      limit ${input.limit})
    update messages m set lease_until = now() + make_interval(secs => ${input.leaseSeconds})
    from picked p where m.project_id = p.project_id and m.id = p.id
    returning m.project_id, m.id, p.share`,
  );
}
