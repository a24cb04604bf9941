import { sql } from "drizzle-orm";
import type { List } from "@/db/schema";
import { cappedMemberCount, memberCountView } from "./member-count";
import type { ListView } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

export async function toListViews(ctx: ProjectContext, rows: List[]): Promise<ListView[]> {
  const counts = rows.length
    ? await ctx.db.execute<{ id: string; n: number }>(
        sql`select t.id, ${cappedMemberCount(ctx.projectId, sql`t.id`)} as n from unnest(${`{${rows.map((r) => r.id).join(",")}}`}::uuid[]) t(id)`,
      )
    : [];
  const byId = new Map(counts.map((c) => [c.id, c.n]));
  return rows.map((l) => ({
    id: l.id,
    name: l.name,
    kind: l.kind,
    rules: l.rules ?? null,
    event_names: l.eventNames,
    windowed: l.windowed,
    tags: l.tags,
    ...memberCountView(byId.get(l.id) ?? 0),
    created_at: l.createdAt.toISOString(),
    updated_at: l.updatedAt.toISOString(),
  }));
}
