import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordSystemEvents, type SystemEvent } from "@/lib/events/record-system-events";
import { completeCycles, LATE_LIMIT, rowsSql, type AssignmentKey } from "./cycles";

export interface FireResult {
  claimed: number;
  fired: number;
  skipped: number;
}

interface Claimed {
  project_id: string;
  id: string;
  assignment_id: string;
  offset_id: string;
  fire_at: string;
  late: boolean;
  user_id: string | null;
  organization_id: string | null;
  data: Record<string, unknown>;
  schedule_id: string;
  name: string;
  offset: string;
}

/**
 * One batch of the firing loop, in one transaction: claim up to `batchSize` due firings with
 * FOR UPDATE SKIP LOCKED (also locking their assignments, skipping any another worker or a pause is
 * holding), record one `scheduled.<name>` event per firing through the pipeline's entry point, mark
 * the firings fired, and advance the cycles they completed. A crash before commit leaves everything
 * pending for the next claimer; nothing is recorded twice because the event and the `fired` mark
 * commit together. Firings over an hour late are marked skipped instead (DESIGN.md section 6).
 * `now` and `projectId` let tests drive one project's clock without touching anyone else's firings.
 */
export async function fireDueFirings(db: Db, opts: { now?: Date; batchSize?: number; projectId?: string } = {}): Promise<FireResult> {
  const now = opts.now ?? new Date();
  const at = sql`${now.toISOString()}::timestamptz`;
  return db.transaction(async (tx) => {
    const claimed = (await tx.execute(sql`
      select f.project_id, f.id, f.assignment_id, f.offset_id, f.fire_at, f.fire_at < ${at} - ${LATE_LIMIT}::interval as late,
             a.user_id, a.organization_id, a.data, a.schedule_id, s.name, o."offset"
      from schedule_firings f
      join schedule_assignments a on a.project_id = f.project_id and a.id = f.assignment_id
      join schedules s on s.project_id = a.project_id and s.id = a.schedule_id
      join schedule_offsets o on o.project_id = f.project_id and o.id = f.offset_id
      where f.state = 'pending' and f.fire_at <= ${at} ${opts.projectId ? sql`and f.project_id = ${opts.projectId}` : sql``}
      order by f.fire_at
      limit ${opts.batchSize ?? 1000}
      for update of f, a skip locked`)) as unknown as Claimed[];
    if (!claimed.length) return { claimed: 0, fired: 0, skipped: 0 };

    const eventIds = new Map<string, string>();
    const byProject = new Map<string, Claimed[]>();
    for (const c of claimed) {
      if (c.late) continue;
      const list = byProject.get(c.project_id) ?? [];
      list.push(c);
      byProject.set(c.project_id, list);
    }
    for (const [projectId, list] of byProject) {
      const ids = await recordSystemEvents(tx, projectId, list.map(toEvent));
      list.forEach((c, i) => eventIds.set(c.id, ids[i]!));
    }

    await tx.execute(sql`
      update schedule_firings f set state = u.state, fired_at = ${at}, event_id = u.event_id
      from ${rowsSql(
        claimed.map((c) => ({ project_id: c.project_id, id: c.id, state: c.late ? "skipped" : "fired", event_id: eventIds.get(c.id) ?? null })),
        "project_id uuid, id uuid, state text, event_id uuid",
      )} u
      where f.project_id = u.project_id and f.id = u.id`);

    const keys = new Map<string, AssignmentKey>();
    for (const c of claimed) keys.set(c.assignment_id, { projectId: c.project_id, id: c.assignment_id });
    await completeCycles(tx, [...keys.values()], now);
    const skipped = claimed.filter((c) => c.late).length;
    return { claimed: claimed.length, fired: claimed.length - skipped, skipped };
  });
}

function toEvent(c: Claimed): SystemEvent {
  const fireAt = new Date(c.fire_at);
  return {
    name: `scheduled.${c.name}`,
    userId: c.user_id,
    organizationId: c.organization_id,
    // The spec's fields win over same-named keys of the assignment's data.
    data: { ...c.data, schedule_id: c.schedule_id, schedule_offset_id: c.offset_id, offset: c.offset, fire_at: fireAt.toISOString() },
  };
}
