import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { layouts } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { saveLayout } from "./save-layout";
import type { updateLayoutBody } from "./schemas";

/** Changes a layout's name or body (its format is fixed): a new version, its templates built again. */
export async function updateLayout(
  ctx: ProjectContext,
  { id, patch }: { id: string; patch: z.output<typeof updateLayoutBody> },
) {
  const [l] = await ctx.db
    .select()
    .from(layouts)
    .where(and(eq(layouts.projectId, ctx.projectId), eq(layouts.id, id)));
  if (!l) throw new NotFound("No layout with this id in this project.");
  return saveLayout(ctx, { id, fields: { name: patch.name ?? l.name, format: l.format, body: patch.body ?? l.body } });
}
