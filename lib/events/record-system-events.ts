import type { Tx } from "@/db/client";
import { events } from "@/db/schema";
import type { SystemEventName } from "./system-events";

export interface SystemEvent {
  name: SystemEventName;
  userId?: string | null;
  organizationId?: string | null;
  data: Record<string, unknown>;
}

/**
 * Records events the service emits, inside the transaction of their cause, so a committed change always
 * has its event and a rolled-back one never does. The row is pipeline step 1 (the occurrence, recorded
 * against its user/organization); the remaining steps are driven from the recorded row by the worker.
 */
export async function recordSystemEvents(tx: Tx, projectId: string, list: SystemEvent[]): Promise<string[]> {
  if (!list.length) return [];
  const rows = await tx
    .insert(events)
    .values(list.map((e) => ({ projectId, name: e.name, userId: e.userId ?? null, organizationId: e.organizationId ?? null, data: e.data, origin: "system" as const })))
    .returning({ id: events.id });
  return rows.map((r) => r.id);
}
