import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import { NotFound } from "@/lib/http/errors";
import { checkTemplate } from "./check-template";
import { nameTaken } from "./create-template";
import { getTemplate } from "./get-template";
import type { updateTemplateBody } from "./schemas";

/** Changes a template; the result must compile as a whole. Messages not yet sent render with the new text. */
export async function updateTemplate(
  ctx: ProjectContext,
  { id, patch }: { id: string; patch: z.output<typeof updateTemplateBody> },
) {
  const [t] = await ctx.db
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, id)));
  if (!t) throw new NotFound("No template with this id in this project.");
  const next = {
    channel: t.channel,
    subject: patch.subject ?? t.subject,
    text: patch.text ?? t.text,
    html: patch.html ?? t.html,
    locales: patch.locales ?? t.locales,
    transactional: patch.transactional ?? t.transactional,
    group: patch.subscription_group === undefined ? t.groupId : patch.subscription_group,
  };
  const { groupId } = await checkTemplate(ctx, next);
  try {
    await ctx.db
      .update(messageTemplates)
      .set({
        name: patch.name ?? t.name,
        subject: next.subject,
        text: next.text,
        html: next.html,
        locales: next.locales,
        transactional: next.transactional,
        groupId,
        // The clock, not the transaction's start: compiled templates are cached by this version, so two
        // edits in one transaction must not share it.
        updatedAt: sql`clock_timestamp()`,
      })
      .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, id)));
  } catch (err) {
    if (errorCode(err) === UNIQUE_VIOLATION) throw nameTaken(patch.name ?? t.name);
    throw err;
  }
  return getTemplate(ctx, id);
}
