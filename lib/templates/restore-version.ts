import { eq } from "drizzle-orm";
import { authoringVersions, type TemplateVariant, type VersionKind } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { assertOwner, versionsOf } from "./list-versions";
import { saveSnippet } from "./save-snippet";
import { updateLayout } from "./update-layout";
import { updateTemplate } from "./update-template";

/**
 * Saves an earlier version's content again: a new version (history is never rewritten), checked and
 * built like any save. A template gets back its parts, format and layout; its name, group and tags stay.
 */
export async function restoreVersion(ctx: ProjectContext, input: { kind: VersionKind; id: string; number: number }) {
  await assertOwner(ctx, input);
  const [v] = await ctx.db
    .select()
    .from(authoringVersions)
    .where(versionsOf(ctx, { ...input, also: eq(authoringVersions.number, input.number) }));
  if (!v) throw new NotFound(`No version ${input.number} of this ${input.kind}.`);
  const c = v.content as Record<string, unknown>;
  if (input.kind === "template")
    return updateTemplate(ctx, {
      id: input.id,
      patch: {
        subject: c.subject as string,
        text: c.text as string,
        html: c.html as string,
        format: c.format as "html" | "mjml",
        layout_id: (c.layout_id as string | null) ?? null,
        locales: c.locales as Record<string, TemplateVariant>,
      },
    });
  if (input.kind === "layout") return updateLayout(ctx, { id: input.id, patch: { body: c.body as string } });
  return saveSnippet(ctx, { id: input.id, fields: { name: c.name as string, body: c.body as string } });
}
