import { and, eq } from "drizzle-orm";
import { eventFanouts, events, type EventFanout, type EventRow } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";

/**
 * One event of the project by id (a primary-key probe), or the `match` fan-out of that id (a `match`
 * event is recorded once per recipient, each with its own id; the fan-out keeps the one it was sent with).
 * The one place the explain and trace endpoints read an event by id: when the history is partitioned by
 * time, the bound goes here.
 */
export async function findEvent(
  ctx: ProjectContext,
  id: string,
): Promise<{ event: EventRow | null; fanout: EventFanout | null }> {
  const [event] = await ctx.db
    .select()
    .from(events)
    .where(and(eq(events.projectId, ctx.projectId), eq(events.id, id)));
  const [fanout] = await ctx.db
    .select()
    .from(eventFanouts)
    .where(and(eq(eventFanouts.projectId, ctx.projectId), eq(eventFanouts.id, id)));
  return { event: event ?? null, fanout: fanout ?? null };
}
