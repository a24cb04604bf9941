import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { scheduleOffsets, schedules, type Schedule } from "@/db/schema";
import type { ScheduleView } from "./schemas";

export const DEFAULT_OFFSET = { offset: "0 minutes", offsetKey: "00:00:00", direction: "after" as const };
export const ANNIVERSARY = { name: "anniversary", type: "recurring" as const, interval: "1 year" };

/**
 * The definition named `name`, created (with its default `0 minutes after` offset) when missing.
 * A concurrent creator wins the unique key; this one then reads the winner's row.
 */
export async function ensureSchedule(tx: DbOrTx, projectId: string, name: string, type: "single" | "recurring"): Promise<Schedule> {
  const found = await findScheduleByName(tx, projectId, name);
  if (found) return found;
  const [created] = await tx
    .insert(schedules)
    .values({ projectId, name, type, builtin: name === ANNIVERSARY.name ? "anniversary" : null })
    .onConflictDoNothing()
    .returning();
  if (created) {
    await tx.insert(scheduleOffsets).values({ projectId, scheduleId: created.id, ...DEFAULT_OFFSET });
    return created;
  }
  const [existing] = await tx.select().from(schedules).where(and(eq(schedules.projectId, projectId), eq(schedules.name, name)));
  return existing!;
}

export async function findScheduleByName(tx: DbOrTx, projectId: string, name: string): Promise<Schedule | undefined> {
  const [row] = await tx.select().from(schedules).where(and(eq(schedules.projectId, projectId), eq(schedules.name, name)));
  return row;
}

/** Definitions with their offsets, in the order of `rows`. */
export async function loadScheduleViews(tx: DbOrTx, projectId: string, rows: Schedule[]): Promise<ScheduleView[]> {
  if (!rows.length) return [];
  const offsets = await tx
    .select()
    .from(scheduleOffsets)
    .where(and(eq(scheduleOffsets.projectId, projectId), inArray(scheduleOffsets.scheduleId, rows.map((r) => r.id))))
    // In firing order around the occurrence: the earliest `before` first, the latest `after` last.
    .orderBy(sql`case ${scheduleOffsets.direction} when 'before' then -(${scheduleOffsets.offset}::interval) else ${scheduleOffsets.offset}::interval end`, asc(scheduleOffsets.id));
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
