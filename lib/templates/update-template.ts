import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { getTemplate } from "./get-template";
import { saveTemplate } from "./save-template";
import type { updateTemplateBody } from "./schemas";

/**
 * Changes a template: the result must compile and build as a whole, and is a new version. Messages
 * already queued keep the version they were queued with; broadcasts the one current at their start.
 */
export async function updateTemplate(
  ctx: ProjectContext,
  { id, patch }: { id: string; patch: z.output<typeof updateTemplateBody> },
) {
  const [t] = await ctx.db
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, id)));
  if (!t) throw new NotFound("No template with this id in this project.");
  await saveTemplate(ctx, {
    id,
    fields: {
      name: patch.name ?? t.name,
      channel: t.channel,
      format: patch.format ?? t.format,
      layoutId: patch.layout_id === undefined ? t.layoutId : patch.layout_id,
      subject: patch.subject ?? t.subject,
      text: patch.text ?? t.text,
      html: patch.html ?? t.html,
      locales: patch.locales ?? t.locales,
      transactional: patch.transactional ?? t.transactional,
      group: patch.subscription_group === undefined ? t.groupId : patch.subscription_group,
      tags: patch.tags ?? t.tags,
    },
  });
  return getTemplate(ctx, id);
}
