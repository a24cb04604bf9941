import { asc, gt } from "drizzle-orm";
import { z as zod } from "zod";
import { layouts, snippets, type Snippet } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { decodeCursor, page } from "@/lib/http/pagination";
import { authoredRows, type LayoutView, type SnippetView, toLayoutView, toSnippetView } from "./layout-view";

/** The project's layouts or snippets in creation order, a page at a time. */
export async function listAuthored(
  ctx: ProjectContext,
  input: { kind: "layout" | "snippet"; limit: number; cursor?: string },
) {
  const table = input.kind === "layout" ? layouts : snippets;
  const after = decodeCursor(input.cursor, zod.tuple([zod.uuid()]));
  const found = await authoredRows(ctx, table, after ? gt(table.id, after[0]) : undefined)
    .orderBy(asc(table.id))
    .limit(input.limit + 1);
  const views = found.map((r) =>
    input.kind === "layout" ? toLayoutView(r.r, r.version) : toSnippetView(r.r as unknown as Snippet, r.version),
  );
  return page<LayoutView | SnippetView>(views, input.limit, (v) => [v.id]);
}
