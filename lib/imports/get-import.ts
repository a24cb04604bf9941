import { and, eq } from "drizzle-orm";
import { imports } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import { importView, type ImportView } from "./view";
import type { ProjectContext } from "@/lib/access/context";

export async function getImport(ctx: ProjectContext, id: string): Promise<ImportView> {
  const [row] = await ctx.db
    .select()
    .from(imports)
    .where(and(eq(imports.projectId, ctx.projectId), eq(imports.id, id)));
  if (!row) throw new NotFound("No import with this id in this project.");
  return importView(row);
}
