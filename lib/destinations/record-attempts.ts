import { sql } from "drizzle-orm";
import type { AppContext } from "@/lib/access/context";
import { inRetryingTransaction } from "@/lib/db/retry";
import { storableText } from "@/lib/db/storable-text";
import type { AttemptResult } from "./post-message";

export interface Outcome extends AttemptResult {
  projectId: string;
  deliveryId: string;
  destinationId: string;
  /** When to try again; null when this was the last try (or a success). */
  nextAttemptAt: Date | null;
}

/**
 * Writes the outcomes of attempts in one transaction: each attempt into the log, each delivery's state
 * (delivered, due again, or failed for good), and per destination: a success clears its failing clock,
 * a failure starts it, `410 Gone` turns it off at once, and failing every attempt for `disableAfterMs`
 * turns it off with the reason. Batched because a busy sender finishes thousands of attempts a second.
 */
export async function recordAttempts(
  { db }: AppContext,
  { outcomes, disableAfterMs }: { outcomes: Outcome[]; disableAfterMs: number },
): Promise<void> {
  if (!outcomes.length) return;
  const rows = JSON.stringify(
    outcomes.map((o) => ({
      p: o.projectId,
      id: o.deliveryId,
      d: o.destinationId,
      at: o.at.toISOString(),
      s: o.status,
      l: o.latencyMs,
      // A receiver's words are stored as storable text: one NUL byte made PostgreSQL refuse the whole batch.
      r: storableText(o.response),
      e: storableText(o.error),
      ok: o.ok,
      next: o.nextAttemptAt?.toISOString() ?? null,
    })),
  );
  await inRetryingTransaction(db, async (tx) => {
    await tx.execute(sql`
      with r as materialized (
        select * from jsonb_to_recordset(${rows}::jsonb)
          as x(p uuid, id uuid, d uuid, at timestamptz, s int, l int, r text, e text, ok boolean, next timestamptz)
      ), upd as (
        update destination_deliveries dd set
          attempts = dd.attempts + 1,
          tries = case when r.ok then dd.tries else dd.tries + 1 end,
          state = case when r.ok then 'delivered' when r.next is null then 'failed' else 'pending' end,
          next_attempt_at = case when r.ok then null else r.next end,
          finished_at = case when r.ok or r.next is null then now() end,
          last_status = r.s, last_error = r.e
        -- The || '' keeps the planner on the primary key: with a plain state = 'pending' it read the partial
        -- due index by project alone and filtered every pending row of the project for each outcome.
        from r where dd.project_id = r.p and dd.id = r.id and dd.state || '' = 'pending'
        returning dd.project_id, dd.id
      )
      insert into destination_attempts (project_id, delivery_id, destination_id, attempted_at, status, latency_ms, response, error)
      select r.p, r.id, r.d, r.at, r.s, r.l, r.r, r.e from r join upd on upd.project_id = r.p and upd.id = r.id`);
    await tx.execute(sql`
      with r as (select * from jsonb_to_recordset(${rows}::jsonb) as x(p uuid, d uuid, at timestamptz, s int, ok boolean)),
      per as (select p, d, bool_or(ok) as ok, min(at) filter (where not ok) as first_fail, bool_or(s = 410) as gone, min(at) as at from r group by p, d)
      update destinations t set
        failing_since = case when per.ok then null else coalesce(t.failing_since, per.first_fail) end,
        enabled = case when per.gone then false else t.enabled end,
        disabled_reason = case when per.gone and t.enabled
          then 'Turned off: the receiver answered 410 Gone at ' || to_char(per.at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') || ' UTC.'
          else t.disabled_reason end,
        updated_at = case when per.gone then now() else t.updated_at end
      from per where t.project_id = per.p and t.id = per.d`);
    await tx.execute(sql`
      update destinations set enabled = false, updated_at = now(),
        disabled_reason = 'Turned off: every attempt failed since ' || to_char(failing_since at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') || ' UTC.'
      where enabled and failing_since < now() - make_interval(secs => ${disableAfterMs / 1000})
        and (project_id, id) in (select x.p, x.d from jsonb_to_recordset(${rows}::jsonb) as x(p uuid, d uuid))`);
  });
}
