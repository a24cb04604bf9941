import { eq } from "drizzle-orm";
import { layouts, snippets, type Snippet } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { authoredRows, toLayoutView, toSnippetView } from "./layout-view";

/** One layout (kind "layout") or snippet of the project; 404 otherwise. */
export async function getAuthored(ctx: ProjectContext, input: { kind: "layout" | "snippet"; id: string }) {
  const table = input.kind === "layout" ? layouts : snippets;
  const [row] = await authoredRows(ctx, table, eq(table.id, input.id));
  if (!row) throw new NotFound(`No ${input.kind} with this id in this project.`);
  return input.kind === "layout"
    ? toLayoutView(row.r, row.version)
    : toSnippetView(row.r as unknown as Snippet, row.version);
}
