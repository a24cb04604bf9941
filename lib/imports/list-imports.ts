import { desc, eq } from "drizzle-orm";
import { imports } from "@/db/schema";
import { importView, type ImportView } from "./view";
import type { ProjectContext } from "@/lib/access/context";

/** The project's 50 latest imports, newest first (the console page's list). */
export async function listImports(ctx: ProjectContext): Promise<ImportView[]> {
  const rows = await ctx.db
    .select()
    .from(imports)
    .where(eq(imports.projectId, ctx.projectId))
    .orderBy(desc(imports.id))
    .limit(50);
  return rows.map(importView);
}
