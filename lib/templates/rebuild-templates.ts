import { and, eq, isNull, or, sql } from "drizzle-orm";
import { messageTemplates, projects, type Layout } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { Invalid } from "@/lib/http/errors";
import { buildTemplate } from "./build-template";
import { saveVersion } from "./save-version";
import { storeBuild } from "./store-build";

/**
 * Builds again every e-mail template the layout wraps (those naming it, and those naming none when it is
 * the project's default and of their format), in the caller's transaction: a template that would no
 * longer build refuses the whole save, named. Called under lockAuthoring after the layout (or the
 * default) is written.
 */
export async function rebuildTemplates(
  ctx: ProjectContext,
  input: { layout: Layout } | { defaultChanged: true },
): Promise<number> {
  const layout = "layout" in input ? input.layout : null;
  const [p] = await ctx.db
    .select({ defaultLayoutId: projects.defaultLayoutId })
    .from(projects)
    .where(eq(projects.id, ctx.projectId));
  const isDefault = layout !== null && p?.defaultLayoutId === layout.id;
  const what = layout ? `The layout "${layout.name}"` : "The new default layout";
  const rows = await ctx.db
    .select()
    .from(messageTemplates)
    .where(
      and(
        eq(messageTemplates.projectId, ctx.projectId),
        eq(messageTemplates.channel, "email"),
        layout
          ? or(
              eq(messageTemplates.layoutId, layout.id),
              isDefault
                ? and(isNull(messageTemplates.layoutId), eq(messageTemplates.format, layout.format))
                : sql`false`,
            )
          : isNull(messageTemplates.layoutId),
      ),
    );
  for (const t of rows) {
    let built: Awaited<ReturnType<typeof buildTemplate>>;
    try {
      built = await buildTemplate(ctx, { ...t, channel: "email" });
    } catch (err) {
      if (!(err instanceof Invalid)) throw err;
      throw new Invalid(`${what} would break a template that uses it. ${err.message}`, {
        errors: [{ path: layout ? "body" : "default_layout_id", message: `template "${t.name}": ${err.message}` }],
      });
    }
    // A template saved before versions existed gets its first one here, so its build has one to name.
    const versionId =
      t.versionId ??
      (
        await saveVersion(ctx, {
          kind: "template",
          ownerId: t.id,
          content: {
            name: t.name,
            format: t.format,
            layout_id: t.layoutId,
            subject: t.subject,
            text: t.text,
            html: t.html,
            locales: t.locales,
            transactional: t.transactional,
            group_id: t.groupId,
          },
        })
      ).id;
    if (!t.versionId)
      await ctx.db
        .update(messageTemplates)
        .set({ versionId })
        .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, t.id)));
    await storeBuild(ctx, { templateId: t.id, templateVersionId: versionId, built });
  }
  return rows.length;
}
