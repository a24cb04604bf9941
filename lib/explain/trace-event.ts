import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/sql";
import { findEvent } from "@/lib/events/find-event";
import { NotFound } from "@/lib/http/errors";
import { walkPaths } from "@/lib/pipeline/property-paths";
import type { ProjectContext } from "@/lib/access/context";
import { recordLabels } from "@/lib/identity/record-labels";
import { type EventTrace, loadTraceSections } from "./trace-sections";

/** Schema rows read per trace at most: an event name with more paths shows the ones this event carries among them. */
const SCHEMA_PATHS_READ = 2000;

/**
 * Where an event went: when it was received (and, for system events, recorded), the record it was
 * recorded against and whether it created that record, the schema paths first seen with it, and every
 * consequence in TRACE_SECTIONS (list changes, journey entries). A `match` event's id shows its fan-out.
 */
export async function traceEvent(ctx: ProjectContext, id: string): Promise<EventTrace> {
  const { event, fanout } = await findEvent(ctx, id);
  if (!event && !fanout) throw new NotFound("No event with this id in this project.");
  const received = (event?.receivedAt ?? fanout!.receivedAt).toISOString();
  let record: EventTrace["record"] = null;
  let paths: string[] = [];
  if (event) {
    const kind = event.userId ? "user" : event.organizationId ? "organization" : null;
    const recordId = event.userId ?? event.organizationId;
    if (kind && recordId) {
      const labels = await recordLabels(ctx, { kind, ids: [recordId] });
      const [made] = await queryRows<{ n: number }>(
        ctx.db,
        sql`select 1 as n from event_created_records where project_id = ${ctx.projectId}::uuid and event_id = ${event.id}::uuid`,
      );
      record = { kind, id: recordId, label: labels.get(recordId)?.label ?? null, created: !!made };
    }
    // A path's first_seen is the receipt time of the batch that brought it: those of this event's receipt
    // time that this event carries were added by it (or by a batch-mate carrying the same path).
    const carried = new Set<string>();
    walkPaths(event.data, (p) => carried.add(p));
    const rows = await queryRows<{ path: string }>(
      ctx.db,
      sql`select path from event_schema where project_id = ${ctx.projectId}::uuid and event_name = ${event.name}
        and first_seen = ${received}::timestamptz order by path limit ${SCHEMA_PATHS_READ}`,
    );
    paths = rows.map((r) => r.path).filter((p) => carried.has(p));
  }
  const sections = await loadTraceSections(ctx, {
    id,
    receivedAt: new Date(received),
    userId: event?.userId ?? null,
    organizationId: event?.organizationId ?? null,
  });
  return {
    id,
    name: event?.name ?? fanout!.name,
    origin: event?.origin ?? null,
    data: event?.data ?? fanout!.data,
    occurred_at: (event?.occurredAt ?? fanout?.occurredAt)?.toISOString() ?? null,
    received_at: received,
    recorded_at: event?.origin === "system" ? received : null,
    record,
    schema_paths_added: paths,
    fanout: fanout
      ? {
          state: fanout.refusal ? "refused" : fanout.finishedAt ? "finished" : "running",
          planned: fanout.planned,
          delivered: fanout.delivered,
          refusal: fanout.refusal,
          finished_at: fanout.finishedAt?.toISOString() ?? null,
        }
      : null,
    ...sections,
  };
}
