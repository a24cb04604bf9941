import type { JourneyEntry } from "@/db/schema";

/** An entry as the API shows it (list, one entry, explain). */
export function toEntryView(e: JourneyEntry) {
  return {
    id: e.id,
    entrance_id: e.entranceId,
    user_id: e.userId,
    event_id: e.eventId,
    context: e.context,
    sendable: e.sendable,
    entered_at: e.enteredAt.toISOString(),
    exited_at: e.exitedAt?.toISOString() ?? null,
    step_key: e.stepKey,
    // Entries exited before steps existed have only their exited_at.
    state: e.exitedAt ? ("exited" as const) : e.state,
    wake_at: e.wakeAt?.toISOString() ?? null,
    waiting_for: e.waitingFor ?? null,
  };
}
