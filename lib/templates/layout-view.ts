import { and, eq, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { authoringVersions, type layouts, type snippets, type Layout, type Snippet } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import type { layoutOutput, snippetOutput } from "./schemas";

export type LayoutView = z.infer<typeof layoutOutput>;
export type SnippetView = z.infer<typeof snippetOutput>;

const stamps = (r: Layout | Snippet, version: number | null) => ({
  version: version ?? 0,
  version_id: r.versionId,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

export const toLayoutView = (l: Layout, version: number | null): LayoutView => ({
  id: l.id,
  name: l.name,
  format: l.format,
  body: l.body,
  ...stamps(l, version),
});

export const toSnippetView = (s: Snippet, version: number | null): SnippetView => ({
  id: s.id,
  name: s.name,
  body: s.body,
  ...stamps(s, version),
});

export function authoredRows<T extends typeof layouts | typeof snippets>(
  ctx: ProjectContext,
  table: T,
  where: SQL | undefined,
) {
  return ctx.db
    .select({ r: table as typeof layouts, version: authoringVersions.number })
    .from(table as typeof layouts)
    .leftJoin(
      authoringVersions,
      and(eq(authoringVersions.projectId, table.projectId), eq(authoringVersions.id, table.versionId)),
    )
    .where(and(eq(table.projectId, ctx.projectId), where));
}
