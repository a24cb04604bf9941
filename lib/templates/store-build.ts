import { and, eq } from "drizzle-orm";
import { messageTemplates, templateBuilds } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import type { Built } from "./build-template";

/** Stores a build of the template's version and makes it the one new messages render. */
export async function storeBuild(
  ctx: ProjectContext,
  input: { templateId: string; templateVersionId: string; built: Built },
): Promise<string> {
  const [b] = await ctx.db
    .insert(templateBuilds)
    .values({
      projectId: ctx.projectId,
      templateVersionId: input.templateVersionId,
      layoutVersionId: input.built.layoutVersionId,
      html: input.built.html,
      locales: input.built.locales,
    })
    .returning({ id: templateBuilds.id });
  await ctx.db
    .update(messageTemplates)
    .set({ buildId: b!.id })
    .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, input.templateId)));
  return b!.id;
}
