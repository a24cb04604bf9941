import { sql } from "drizzle-orm";
import { Invalid, RuleBroken } from "@/lib/http/errors";
import { completeCycles, materializeFirings, nextCycleSql } from "./cycles";
import { ensureSchedule } from "./definitions";
import { checkInterval, minAssignmentInterval } from "./interval";
import type { AssignmentInput, AssignmentView } from "./schemas";
import { resolveSubject, subjectColumn, type SubjectKind } from "./subject";
import { loadAssignmentViews } from "./view";
import { inRetryingTransaction } from "@/lib/db/retry";
import { queryRows } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Creates or replaces the (user or organization, schedule name) assignment: timing, interval and data
 * are replaced, its old firings dropped and one firing per offset made for the first occurrence. A
 * name with no definition creates one (recurring when `interval` is given). Single: the occurrence is
 * `scheduled_at`. Recurring: the first `start_at + k * interval` after now (k >= 0), so the default
 * start (now) first occurs one interval later.
 */
export async function assignSchedule(
  ctx: ProjectContext,
  { kind, body: input, now = new Date() }: { kind: SubjectKind; body: AssignmentInput; now?: Date },
): Promise<{ assignment: AssignmentView; created: boolean }> {
  const interval =
    input.interval !== undefined
      ? (await checkInterval(ctx, { value: input.interval, path: "interval", min: minAssignmentInterval() })).text
      : null;
  if (input.start_at !== undefined) checkTime("start_at", input.start_at, now, 10);
  if (input.scheduled_at !== undefined) checkTime("scheduled_at", input.scheduled_at, now, 100);
  const type = interval ? "recurring" : "single";
  return inRetryingTransaction(ctx.db, async (tx) => {
    const subjectId = await resolveSubject({ ...ctx, db: tx }, { kind, identifier: input.identifier });
    const schedule = await ensureSchedule({ ...ctx, db: tx }, { name: input.name, type });
    if (schedule.type !== type) {
      throw new RuleBroken(
        type === "recurring"
          ? `The schedule ${schedule.name} is single: send scheduled_at, not interval.`
          : `The schedule ${schedule.name} is recurring: send interval (and optionally start_at), not scheduled_at.`,
        {
          errors: [
            { path: type === "recurring" ? "interval" : "scheduled_at", message: `schedule is ${schedule.type}` },
          ],
        },
      );
    }
    const at = sql`${now.toISOString()}::timestamptz`;
    const anchor = sql`${input.scheduled_at ?? input.start_at ?? now.toISOString()}::timestamptz`;
    const cycle = interval ? nextCycleSql(anchor, sql`${interval}::interval`, at) : sql`0`;
    const column = subjectColumn(kind);
    const [row] = await queryRows<{ projectId: string; id: string; created: boolean }>(
      tx,
      sql`
      insert into schedule_assignments as a (project_id, schedule_id, ${column}, state, interval, anchor, cycle, occurrence_at, data, created_at, updated_at)
      select ${ctx.projectId}, ${schedule.id}, ${subjectId}, 'active', ${interval}, ${anchor}, c.k,
             ${anchor} + c.k * coalesce(${interval}::interval, '0'::interval), ${JSON.stringify(input.data ?? {})}::jsonb, ${at}, ${at}
      from (select ${cycle} as k) c
      on conflict (project_id, ${column}, schedule_id) where ${column} is not null do update set
        state = 'active', pause_mode = null, interval = excluded.interval, anchor = excluded.anchor, cycle = excluded.cycle,
        occurrence_at = excluded.occurrence_at, data = excluded.data, updated_at = excluded.updated_at
      returning a.project_id as "projectId", a.id, (xmax = 0) as created`,
    );
    // A replacement starts over: cycles count from the new anchor, so the old firings (and their keys) go.
    if (!row!.created)
      await tx.execute(
        sql`delete from schedule_firings where project_id = ${ctx.projectId} and assignment_id = ${row!.id}`,
      );
    await materializeFirings({ ...ctx, db: tx }, { keys: [row!], now });
    await completeCycles({ ...ctx, db: tx }, { keys: [row!], now });
    const [assignment] = await loadAssignmentViews({ ...ctx, db: tx }, [row!.id]);
    return { assignment: assignment!, created: row!.created };
  });
}

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

/**
 * `start_at` lies between 1970 and ten years ahead (`scheduled_at`: a hundred): an anchor decades back
 * with a short interval made the cycle arithmetic scan millions of rows, and times near the ends of
 * PostgreSQL's range overflow once an offset is applied.
 */
function checkTime(path: "start_at" | "scheduled_at", value: string, now: Date, yearsAhead: number): void {
  const t = Date.parse(value);
  if (t >= 0 && t <= now.getTime() + yearsAhead * YEAR_MS) return;
  const message = t < 0 ? "must not be before 1970-01-01" : `must not be more than ${yearsAhead} years ahead`;
  throw new Invalid(`\`${path}\` ${message}; got ${value}.`, { errors: [{ path, message }] });
}
