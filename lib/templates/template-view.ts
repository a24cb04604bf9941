import { and, eq } from "drizzle-orm";
import { authoringVersions, messageTemplates, subscriptionGroups, type MessageTemplate } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import type { z } from "zod";
import type { templateOutput } from "./schemas";

export type TemplateView = z.infer<typeof templateOutput>;

export function toTemplateView(
  t: MessageTemplate,
  group: { id: string; name: string } | null,
  version: number | null = null,
): TemplateView {
  return {
    id: t.id,
    name: t.name,
    channel: t.channel,
    subject: t.subject,
    text: t.text,
    html: t.html,
    subscription_group: group,
    transactional: t.transactional,
    locales: t.locales,
    format: t.format,
    layout_id: t.layoutId,
    tags: t.tags,
    version: version ?? 0,
    version_id: t.versionId,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

/** The project's templates matching `where`, each with its group's id and name (a query to refine). */
export function templateRows(ctx: ProjectContext, where: ReturnType<typeof and>) {
  return ctx.db
    .select({
      t: messageTemplates,
      g: { id: subscriptionGroups.id, name: subscriptionGroups.name },
      version: authoringVersions.number,
    })
    .from(messageTemplates)
    .leftJoin(
      authoringVersions,
      and(
        eq(authoringVersions.projectId, messageTemplates.projectId),
        eq(authoringVersions.id, messageTemplates.versionId),
      ),
    )
    .leftJoin(
      subscriptionGroups,
      and(
        eq(subscriptionGroups.projectId, messageTemplates.projectId),
        eq(subscriptionGroups.id, messageTemplates.groupId),
      ),
    )
    .where(and(eq(messageTemplates.projectId, ctx.projectId), where));
}
