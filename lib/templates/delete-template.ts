import { and, eq } from "drizzle-orm";
import { broadcasts, messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound, RuleBroken } from "@/lib/http/errors";

/** Deletes a template with its messages' log; refused (422) while a broadcast uses it. */
export async function deleteTemplate(ctx: ProjectContext, id: string): Promise<void> {
  const [used] = await ctx.db
    .select({ id: broadcasts.id })
    .from(broadcasts)
    .where(and(eq(broadcasts.projectId, ctx.projectId), eq(broadcasts.templateId, id)))
    .limit(1);
  if (used) throw new RuleBroken("A broadcast uses this template: delete the broadcast first.");
  const rows = await ctx.db
    .delete(messageTemplates)
    .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, id)))
    .returning({ id: messageTemplates.id });
  if (!rows.length) throw new NotFound("No template with this id in this project.");
}
