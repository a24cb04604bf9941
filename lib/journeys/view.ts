import { and, eq, inArray } from "drizzle-orm";
import { journeyEntrances, type Journey } from "@/db/schema";
import type { JourneyView } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

export async function toJourneyViews(ctx: ProjectContext, rows: Journey[]): Promise<JourneyView[]> {
  const entrances = rows.length
    ? await ctx.db
        .select()
        .from(journeyEntrances)
        .where(
          and(
            eq(journeyEntrances.projectId, ctx.projectId),
            inArray(
              journeyEntrances.journeyId,
              rows.map((r) => r.id),
            ),
          ),
        )
        .orderBy(journeyEntrances.id)
    : [];
  return rows.map((j) => ({
    id: j.id,
    name: j.name,
    allow_multiple_entries: j.allowMultipleEntries,
    allow_concurrent_runs: j.allowConcurrentRuns,
    entrances: entrances
      .filter((e) => e.journeyId === j.id)
      .map((e) => ({
        id: e.id,
        kind: e.kind,
        event_name: e.eventName,
        condition: e.condition ?? null,
        user_rule: e.userRule ?? null,
        schedule_id: e.scheduleId,
        schedule_offset_id: e.scheduleOffsetId,
        data_key: e.dataKey,
      })),
    created_at: j.createdAt.toISOString(),
    updated_at: j.updatedAt.toISOString(),
  }));
}
