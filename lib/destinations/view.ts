import { sql, type SQL } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { maskUrl } from "./mask-url";
import type { DestinationView } from "./schemas";

interface Row {
  id: string;
  name: string;
  url: string;
  events: string[];
  filter: Record<string, unknown> | null;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: string | null;
  previous_secret_until: string | null;
  created_at: string;
  updated_at: string;
  attempts_24h: number;
  ok_24h: number;
  last_error: string | null;
  last_error_at: string | null;
  backlog: number;
}

const iso = (t: string | null) => (t ? new Date(t).toISOString() : null);

/**
 * Health counts stop here (the newest attempts of 24 h, the backlog): a listing of 50 busy destinations
 * once counted every attempt of the day on each call; capped, each call reads at most this many index
 * entries per destination, and the rate is that of the newest attempts.
 */
export const HEALTH_COUNT_CAP = 10_000;

/**
 * Destinations of the project matching `where` (over `d`), newest first, with their health: attempts and
 * successes over 24 h and the backlog (each counted up to HEALTH_COUNT_CAP), the last failed attempt. Never
 * the secret, and the URL masked (mask-url.ts).
 */
export async function destinationViews(
  ctx: ProjectContext,
  { where, limit }: { where: SQL; limit: number },
): Promise<DestinationView[]> {
  const rows = await queryRows<Row>(
    ctx.db,
    sql`
    select d.id, d.name, d.url, d.events, d.filter, d.enabled, d.disabled_reason, d.failing_since::text,
      case when d.previous_secret_until > now() then d.previous_secret_until::text end as previous_secret_until,
      d.created_at::text, d.updated_at::text, h.attempts_24h, h.ok_24h, le.error as last_error, le.at::text as last_error_at,
      (select count(*)::int from (select 1 from destination_deliveries x
        where x.project_id = d.project_id and x.destination_id = d.id and x.state = 'pending'
        limit ${HEALTH_COUNT_CAP}) b) as backlog
    from destinations d
    cross join lateral (
      select count(*)::int as attempts_24h, count(*) filter (where a.status between 200 and 299)::int as ok_24h
      from (select a.status from destination_attempts a
        where a.project_id = d.project_id and a.destination_id = d.id and a.attempted_at > now() - interval '24 hours'
        order by a.attempted_at desc limit ${HEALTH_COUNT_CAP}) a) h
    left join lateral (
      select coalesce(a.error, 'answered ' || a.status) as error, a.attempted_at as at from destination_attempts a
      where a.project_id = d.project_id and a.destination_id = d.id and a.attempted_at > now() - interval '7 days'
        and (a.status is null or a.status not between 200 and 299)
      order by a.attempted_at desc limit 1) le on true
    where d.project_id = ${ctx.projectId}::uuid and ${where}
    order by d.id desc limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    url: maskUrl(r.url),
    events: r.events,
    filter: r.filter,
    enabled: r.enabled,
    disabled_reason: r.disabled_reason,
    failing_since: iso(r.failing_since),
    secret_rotating_until: iso(r.previous_secret_until),
    health: {
      attempts_24h: r.attempts_24h,
      success_rate_24h: r.attempts_24h ? r.ok_24h / r.attempts_24h : null,
      last_error: r.last_error,
      last_error_at: iso(r.last_error_at),
      backlog: r.backlog,
    },
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  }));
}
