import { and, count, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { listMembers, type List } from "@/db/schema";
import type { ListView } from "./schemas";

export async function toListViews(db: DbOrTx, projectId: string, rows: List[]): Promise<ListView[]> {
  const counts = rows.length
    ? await db
        .select({ listId: listMembers.listId, n: count() })
        .from(listMembers)
        .where(and(eq(listMembers.projectId, projectId), inArray(listMembers.listId, rows.map((r) => r.id))))
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
