import { sql, type SQL } from "drizzle-orm";
import { uuidv7s } from "@/lib/db/uuidv7";
import { openBatchOf } from "@/lib/pipeline/open-batch";
import { wakesAfterCommit } from "@/lib/pipeline/wake-intake";
import { INTAKE_CHANNEL } from "@/lib/queue/jobs";
import type { SystemEventName } from "./system-events";
import type { ProjectContext } from "@/lib/access/context";

export interface SystemEvent {
  name: SystemEventName;
  userId?: string | null;
  organizationId?: string | null;
  data: Record<string, unknown>;
  /** When it happened; default now. A `scheduled.*` firing passes its fire time. */
  occurredAt?: Date;
}

/**
 * Records events the service emits, inside the transaction of their cause, so a committed change always
 * has its event and a rolled-back one never does. The `events` row is pipeline step 1 (the occurrence,
 * recorded against its user/organization); a `recorded` intake row in the same transaction hands the
 * event to the worker, which runs steps 2-4 (schema, lists, journeys) exactly as for client events.
 * Events recorded by the drain itself join the batch it is finishing instead (lib/pipeline/open-batch.ts).
 */
export async function recordSystemEvents(ctx: ProjectContext, list: SystemEvent[]): Promise<string[]> {
  if (!list.length) return [];
  // One statement however many events: the rows travel as one jsonb array (a per-row parameterised
  // insert costs about five times as much at a thousand rows, which the schedule firing loop feels).
  // The ids are drawn here (lib/db/uuidv7.ts), a third of the per-row cost of uuid_generate_v7() in SQL.
  const ids = uuidv7s(list.length);
  const rows = JSON.stringify(
    list.map((e, ord) => ({
      ord,
      id: ids[ord],
      name: e.name,
      user_id: e.userId ?? null,
      organization_id: e.organizationId ?? null,
      kind: e.organizationId && !e.userId ? "organization" : "user",
      data: e.data,
      occurred_at: e.occurredAt?.toISOString() ?? null,
    })),
  );
  const recording = systemEventsSql(ctx);
  const recorded = await ctx.db.execute<{ id: string; received_at: string; occurred_at: string }>(sql`
    with input as materialized (
      select x.*
      from jsonb_to_recordset(${rows}::jsonb)
        as x(ord int, id uuid, name text, user_id uuid, organization_id uuid, kind text, data jsonb, occurred_at timestamptz)
    ), ${recording.ctes}
    select input.id, now()::text as received_at, coalesce(input.occurred_at, now())::text as occurred_at
    from input${recording.from} order by input.ord`);
  addToOpenBatch(ctx, () =>
    recorded.map((r, i) => ({
      id: r.id,
      name: list[i]!.name,
      data: list[i]!.data,
      receivedAt: r.received_at,
      occurredAt: r.occurred_at,
    })),
  );
  return recorded.map((r) => r.id);
}

/**
 * The part of a statement that records the rows of a relation named `input` (columns ord, id, name,
 * user_id, organization_id, kind, data, occurred_at: null means now) as system events and hands them
 * over: `ctes` continues the statement's WITH list, and its final select must append `from` to its FROM
 * list (the intake wake-up only runs if selected). Set-based writers that make the events' data in SQL
 * (lib/identity/upsert-records.ts: `*.created` from the inserted rows) build `input` themselves, so
 * recordSystemEvents and they record and hand over alike. Those callers then call addToOpenBatch.
 */
export function systemEventsSql(ctx: ProjectContext, opts: { wakeAfter?: boolean } = {}): { ctes: SQL; from: SQL } {
  const recorded = sql`recorded as (
      insert into events (project_id, id, name, user_id, organization_id, data, origin, occurred_at)
      select ${ctx.projectId}::uuid, id, name, user_id, organization_id, data, 'system', coalesce(occurred_at, now()) from input
    )`;
  // Inside a drain (or a batch endpoint) the events join the open batch; anywhere else a `recorded`
  // intake row hands them over.
  if (openBatchOf(ctx)) return { ctes: recorded, from: sql`` };
  const handedOver = sql`${recorded}, handed_over as (
      -- The data rides along so the worker can compute the schema step without re-reading the event.
      insert into event_intake (project_id, id, kind, name, data, occurred_at, recorded)
      select ${ctx.projectId}::uuid, id, kind, name, data, coalesce(occurred_at, now()), true from input
    )`;
  // The writer that owns the transaction, or a statement that is its own (`wakeAfter`), wakes the drain
  // after the commit (lib/pipeline/wake-intake.ts).
  if (opts.wakeAfter || wakesAfterCommit(ctx)) return { ctes: handedOver, from: sql`` };
  return {
    ctes: sql`${handedOver}, woken as (select pg_notify(${INTAKE_CHANNEL}, ''))`,
    from: sql`, woken`,
  };
}

/**
 * Events just recorded join the open batch (lib/pipeline/open-batch.ts), if there is one; otherwise their intake rows handed them
 * over and `events` is not called (a set-based writer need not build the list).
 */
export function addToOpenBatch(
  ctx: ProjectContext,
  events: () => { id: string; name: string; data: Record<string, unknown>; receivedAt: string; occurredAt?: string }[],
): void {
  openBatchOf(ctx)?.push(...events());
}
