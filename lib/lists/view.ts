import { and, count, eq, inArray } from "drizzle-orm";
import { listMembers, type List } from "@/db/schema";
import type { ListView } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

export async function toListViews(ctx: ProjectContext, rows: List[]): Promise<ListView[]> {
  const counts = rows.length
    ? await ctx.db
        .select({ listId: listMembers.listId, n: count() })
        .from(listMembers)
        .where(
          and(
            eq(listMembers.projectId, ctx.projectId),
            inArray(
              listMembers.listId,
              rows.map((r) => r.id),
            ),
          ),
        )
        .groupBy(listMembers.listId)
    : [];
  const byId = new Map(counts.map((c) => [c.listId, c.n]));
  return rows.map((l) => ({
    id: l.id,
    name: l.name,
    kind: l.kind,
    rules: l.rules ?? null,
    event_names: l.eventNames,
    windowed: l.windowed,
    member_count: byId.get(l.id) ?? 0,
    created_at: l.createdAt.toISOString(),
    updated_at: l.updatedAt.toISOString(),
  }));
}
