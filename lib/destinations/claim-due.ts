import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { unseal } from "@/lib/signing/seal";
import type { SigningSecrets } from "./sign";

/** A claimed delivery may be sent by no one else for this long (longer than an attempt's 10 s timeout). */
export const LEASE_SECONDS = 30;

export interface ClaimedDelivery {
  projectId: string;
  id: string;
  destinationId: string;
  url: string;
  body: string;
  tries: number;
  secrets: SigningSecrets;
}

const unsealed = new Map<string, string>();
function open(sealed: string): string {
  let s = unsealed.get(sealed);
  if (s === undefined) {
    s = unseal(sealed) ?? "";
    if (unsealed.size > 10_000) unsealed.clear();
    unsealed.set(sealed, s);
  }
  return s;
}

/**
 * Claims due deliveries of enabled destinations, oldest due first, with SKIP LOCKED so senders never share
 * one. Claiming moves `next_attempt_at` a lease ahead: a sender killed mid-attempt leaves the delivery due
 * again after it.
 *
 * How many a destination may hold in this process (`share`, returned with each row) is its fair part of
 * the process's budget (`maxInFlight`): split first between the projects with work here (due messages or
 * attempts in flight), then between such destinations of each project, each split leaving one part free
 * for a newcomer, and never above `perDestination`. So destinations that never answer, however many, hold
 * only their shares: a healthy destination, in their project or another, always finds slots free.
 */
export async function claimDue(
  { db }: AppContext<Db>,
  opts: { perDestination: number; maxInFlight: number; busy: Map<string, number>; limit: number },
): Promise<(ClaimedDelivery & { share: number })[]> {
  const busy = JSON.stringify([...opts.busy].map(([id, n]) => ({ id, n })));
  const rows = await db.execute<{
    project_id: string;
    id: string;
    destination_id: string;
    url: string;
    payload: string;
    tries: number;
    secret_sealed: string;
    previous_secret_sealed: string | null;
    share: number;
  }>(sql`
    with busy as (
      select b.id, b.n from jsonb_to_recordset(${busy}::jsonb) as b(id uuid, n int)
    ), due as (
      select d.project_id, d.id, d.url, d.secret_sealed,
        case when d.previous_secret_until > now() then d.previous_secret_sealed end as previous_secret_sealed
      from destinations d
      where d.enabled and exists (select 1 from destination_deliveries x
        where x.project_id = d.project_id and x.destination_id = d.id and x.state = 'pending' and x.next_attempt_at <= now())
    ), active as (
      select project_id, id from due
      union
      select d.project_id, d.id from destinations d join busy b on b.id = d.id
    ), shared as (
      select a.id,
        least(${opts.perDestination}::int, greatest(1,
          ${opts.maxInFlight}::int / ((select count(distinct project_id) from active) + 1)
            / (count(*) over (partition by a.project_id) + 1)))::int as share
      from active a
    ), room as (
      select due.*, s.share, s.share - coalesce(b.n, 0) as k
      from due join shared s on s.id = due.id left join busy b on b.id = due.id
    ), picked as (
      select x.project_id, x.id, r.id as destination_id from room r cross join lateral (
        select dd.project_id, dd.id from destination_deliveries dd
        where dd.project_id = r.project_id and dd.destination_id = r.id and dd.state = 'pending' and dd.next_attempt_at <= now()
        order by dd.next_attempt_at limit greatest(r.k, 0) for update skip locked) x
      limit ${opts.limit}
    )
    update destination_deliveries dd set next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
    from picked p join room r on r.project_id = p.project_id and r.id = p.destination_id
    where dd.project_id = p.project_id and dd.id = p.id
    returning dd.project_id, dd.id, dd.destination_id, r.url, dd.payload::text as payload, dd.tries,
      r.secret_sealed, r.previous_secret_sealed, r.share`);
  return rows.map((r) => ({
    projectId: r.project_id,
    id: r.id,
    destinationId: r.destination_id,
    url: r.url,
    body: r.payload,
    tries: r.tries,
    share: r.share,
    secrets: {
      current: open(r.secret_sealed),
      previous: r.previous_secret_sealed ? open(r.previous_secret_sealed) : null,
    },
  }));
}
