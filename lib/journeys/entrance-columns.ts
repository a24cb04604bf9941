import type { z } from "zod";
import type { entranceInput } from "./schemas";

/**
 * The columns of a `journey_entrances` row for an entrance body, the one mapping from the API's shape to
 * the table's: an event entrance clears the schedule columns and a scheduled one the event columns, so an
 * entrance edited from one kind to the other keeps nothing of the old.
 */
export function entranceColumns(e: z.output<typeof entranceInput>) {
  return e.kind === "event"
    ? {
        kind: e.kind,
        eventName: e.event_name,
        condition: e.condition ?? null,
        userRule: e.user_rule ?? null,
        scheduleId: null,
        scheduleOffsetId: null,
        dataKey: e.data_key,
      }
    : {
        kind: e.kind,
        eventName: null,
        condition: null,
        userRule: null,
        scheduleId: e.schedule_id,
        scheduleOffsetId: e.schedule_offset_id,
        dataKey: e.data_key,
      };
}
