import { and, eq } from "drizzle-orm";
import { lists, messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";

/** The template and list a broadcast names must be this project's (404 naming the field otherwise). */
export async function checkBroadcastRefs(ctx: ProjectContext, refs: { templateId?: string; listId?: string }) {
  if (refs.templateId) {
    const [t] = await ctx.db
      .select({ id: messageTemplates.id })
      .from(messageTemplates)
      .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, refs.templateId)));
    if (!t)
      throw new NotFound("No template with this id in this project.", {
        errors: [{ path: "template_id", message: "no such template" }],
      });
  }
  if (refs.listId) {
    const [l] = await ctx.db
      .select({ id: lists.id })
      .from(lists)
      .where(and(eq(lists.projectId, ctx.projectId), eq(lists.id, refs.listId)));
    if (!l)
      throw new NotFound("No list with this id in this project.", {
        errors: [{ path: "list_id", message: "no such list" }],
      });
  }
}
