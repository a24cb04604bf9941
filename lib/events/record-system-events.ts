import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { eventIntake, events } from "@/db/schema";
import { INTAKE_CHANNEL } from "@/lib/queue/jobs";
import type { SystemEventName } from "./system-events";

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
 */
export async function recordSystemEvents(tx: Tx, projectId: string, list: SystemEvent[]): Promise<string[]> {
  if (!list.length) return [];
  const rows = await tx
    .insert(events)
    .values(
      list.map((e) => ({
        projectId,
        name: e.name,
        userId: e.userId ?? null,
        organizationId: e.organizationId ?? null,
        data: e.data,
        origin: "system" as const,
        ...(e.occurredAt ? { occurredAt: e.occurredAt } : {}),
      })),
    )
    .returning({ id: events.id, receivedAt: events.receivedAt });
  await tx.insert(eventIntake).values(
    rows.map((r, i) => ({
      projectId,
      id: r.id,
      kind: list[i]!.organizationId && !list[i]!.userId ? ("organization" as const) : ("user" as const),
      name: list[i]!.name,
      // The data rides along so the worker can compute the schema step without re-reading the event.
      data: list[i]!.data,
      receivedAt: r.receivedAt,
      recorded: true,
    })),
  );
  await tx.execute(sql`select pg_notify(${INTAKE_CHANNEL}, '')`);
  return rows.map((r) => r.id);
}
