import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { fairShareCtes, type HeldCounts } from "@/lib/outbound/fair-share";
import { unseal } from "@/lib/signing/seal";
import type { SigningSecrets } from "./sign";

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
 * one. Claiming moves `next_attempt_at` a lease ahead (renewed while the sender holds it: renewLeases): a
 * sender killed mid-attempt leaves the delivery due again after it.
 *
 * How many a destination may hold in this process (`share`, returned with each row) is its fair part of
 * the process's budget (`maxInFlight`), split by project and then by destination (lib/outbound/fair-share.ts)
 * and never above `perDestination`. So destinations that never answer, however many, hold only their
 * shares: a healthy destination, in their project or another, always finds slots free.
 */
export async function claimDue(
  { db }: AppContext<Db>,
  opts: { perDestination: number; maxInFlight: number; held: HeldCounts; limit: number; leaseSeconds: number },
): Promise<(ClaimedDelivery & { share: number })[]> {
  const due = sql`select d.project_id, d.id::text as grp from destinations d
    where d.enabled and exists (select 1 from destination_deliveries x
      where x.project_id = d.project_id and x.destination_id = d.id and x.state = 'pending' and x.next_attempt_at <= now())`;
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
    with ${fairShareCtes(opts.held, due, { maxInFlight: opts.maxInFlight, perGroup: opts.perDestination })},
    open as (
      select d.project_id, d.id, d.url, d.secret_sealed, r.share, r.k,
        case when d.previous_secret_until > now() then d.previous_secret_sealed end as previous_secret_sealed
      from room r join destinations d on d.project_id = r.project_id and d.id::text = r.grp
      where d.enabled and r.k > 0
    ), picked as (
      select x.project_id, x.id, o.id as destination_id from open o cross join lateral (
        select dd.project_id, dd.id from destination_deliveries dd
        where dd.project_id = o.project_id and dd.destination_id = o.id and dd.state = 'pending' and dd.next_attempt_at <= now()
        order by dd.next_attempt_at limit o.k for update skip locked) x
      limit ${opts.limit}
    )
    update destination_deliveries dd set next_attempt_at = now() + make_interval(secs => ${opts.leaseSeconds})
    from picked p join open o on o.project_id = p.project_id and o.id = p.destination_id
    where dd.project_id = p.project_id and dd.id = p.id
    returning dd.project_id, dd.id, dd.destination_id, o.url, dd.payload::text as payload, dd.tries,
      o.secret_sealed, o.previous_secret_sealed, o.share`);
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
