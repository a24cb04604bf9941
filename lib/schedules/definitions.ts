import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { scheduleOffsets, schedules, type Schedule } from "@/db/schema";
import type { ScheduleView } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

export const DEFAULT_OFFSET = { offset: "0 minutes", offsetKey: "00:00:00", direction: "after" as const };
export const ANNIVERSARY = { name: "anniversary", type: "recurring" as const, interval: "1 year" };

/**
 * The definition named `name`, created (with its default `0 minutes after` offset) when missing.
 * A concurrent creator wins the unique key; this one then reads the winner's row.
 */
export async function ensureSchedule(
  ctx: ProjectContext,
  { name, type }: { name: string; type: "single" | "recurring" },
): Promise<Schedule> {
  // Key-share locked: the caller hangs assignments on it, which have no foreign key (db/migrations/0019_schedule_cascade_triggers.sql).
  const held = () =>
    ctx.db
      .select()
      .from(schedules)
      .where(and(eq(schedules.projectId, ctx.projectId), eq(schedules.name, name)))
      .for("key share");
  const [found] = await held();
  if (found) return found;
  const [created] = await ctx.db
    .insert(schedules)
    .values({ projectId: ctx.projectId, name, type, builtin: name === ANNIVERSARY.name ? "anniversary" : null })
    .onConflictDoNothing()
    .returning();
  if (created) {
    await ctx.db
      .insert(scheduleOffsets)
      .values({ projectId: ctx.projectId, scheduleId: created.id, ...DEFAULT_OFFSET });
    return created;
  }
  const [existing] = await held();
  return existing!;
}

/** Definitions with their offsets, in the order of `rows`. */
export async function loadScheduleViews(ctx: ProjectContext, rows: Schedule[]): Promise<ScheduleView[]> {
  if (!rows.length) return [];
  const offsets = await ctx.db
    .select()
    .from(scheduleOffsets)
    .where(
      and(
        eq(scheduleOffsets.projectId, ctx.projectId),
        inArray(
          scheduleOffsets.scheduleId,
          rows.map((r) => r.id),
        ),
      ),
    )
    // In firing order around the occurrence: the earliest `before` first, the latest `after` last.
    .orderBy(
      sql`case ${scheduleOffsets.direction} when 'before' then -(${scheduleOffsets.offset}::interval) else ${scheduleOffsets.offset}::interval end`,
      asc(scheduleOffsets.id),
    );
  return rows.map((s) => ({
    id: s.id,
    name: s.name,
    type: s.type,
    builtin: s.builtin !== null,
    offsets: offsets
      .filter((o) => o.scheduleId === s.id)
      .map((o) => ({ id: o.id, offset: o.offset, direction: o.direction, created_at: o.createdAt.toISOString() })),
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  }));
}
