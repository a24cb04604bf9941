import { sql, type SQL } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import type { DeliveryView } from "./schemas";
import { webhookIdOf } from "./sign";

/** Attempts shown per delivery (newest); a delivery has at most the retry schedule's length plus manual retries. */
const ATTEMPTS_SHOWN = 20;

/**
 * The delivery log's page (list-deliveries.ts) shows less of each message: its newest LOG_ATTEMPTS attempts,
 * each answer's first LOG_RESPONSE_CHARS characters. With 20 attempts of 1 KiB answers (JSON-escaped binary
 * answers grow sixfold) a page of 500 once cost a reader's key megabytes per call.
 */
export const LOG_ATTEMPTS = 5;
export const LOG_RESPONSE_CHARS = 256;

interface Row {
  id: string;
  destination_id: string;
  event_id: string | null;
  event_name: string;
  user_id: string | null;
  state: DeliveryView["state"];
  next_attempt_at: string | null;
  created_at: string;
  finished_at: string | null;
  attempts: { at: string; status: number | null; latency_ms: number; response: string | null; error: string | null }[];
}

const iso = (t: string | null) => (t ? new Date(t).toISOString() : null);

/**
 * Deliveries of the project matching `where` (over `dd`), newest first, each with its newest `attempts`
 * attempts (oldest first), each answer cut to `responseChars`.
 */
export async function deliveryViews(
  ctx: ProjectContext,
  {
    where,
    limit,
    attempts = ATTEMPTS_SHOWN,
    responseChars = 1024,
  }: { where: SQL; limit: number; attempts?: number; responseChars?: number },
): Promise<DeliveryView[]> {
  const rows = await queryRows<Row>(
    ctx.db,
    sql`
    select dd.id, dd.destination_id, dd.event_id, dd.event_name, dd.user_id, dd.state,
      case when dd.state = 'pending' then dd.next_attempt_at::text end as next_attempt_at,
      dd.created_at::text, dd.finished_at::text,
      coalesce((select jsonb_agg(jsonb_build_object('at', a.attempted_at, 'status', a.status, 'latency_ms', a.latency_ms,
          'response', left(a.response, ${responseChars}), 'error', a.error) order by a.attempted_at)
        from (select * from destination_attempts a where a.project_id = dd.project_id and a.delivery_id = dd.id
              order by a.attempted_at desc limit ${attempts}) a), '[]'::jsonb) as attempts
    from destination_deliveries dd
    where dd.project_id = ${ctx.projectId}::uuid and ${where}
    order by dd.id desc limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    webhook_id: webhookIdOf(r.id),
    destination_id: r.destination_id,
    event_id: r.event_id,
    event_name: r.event_name,
    user_id: r.user_id,
    state: r.state,
    attempts: r.attempts.map((a) => ({
      attempted_at: new Date(a.at).toISOString(),
      status: a.status,
      latency_ms: a.latency_ms,
      response: a.response,
      error: a.error,
    })),
    next_attempt_at: iso(r.next_attempt_at),
    created_at: iso(r.created_at)!,
    finished_at: iso(r.finished_at),
  }));
}
