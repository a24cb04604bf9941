import { and, eq, sql } from "drizzle-orm";
import { messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import { withTransaction } from "@/lib/db/transaction";
import { Conflict } from "@/lib/http/errors";
import { buildTemplate } from "./build-template";
import { checkTemplate } from "./check-template";
import type { TemplateFields } from "./template-fields";
import { lockAuthoring, saveVersion } from "./save-version";
import { storeBuild } from "./store-build";

export const nameTaken = (name: string) =>
  new Conflict(`A template named "${name}" exists in this project.`, {
    errors: [{ path: "name", message: "already used" }],
  });

/**
 * Every save of a template, new or changed: the parts compile, the snippets they render exist, the html
 * builds inside its layout; then the row, a new version and its build, in one transaction under the
 * project's authoring lock. Returns the template's id.
 */
export async function saveTemplate(
  ctx: ProjectContext,
  input: { id?: string; fields: TemplateFields },
): Promise<string> {
  const f = input.fields;
  return withTransaction(ctx.db, async (tx) => {
    const c = { ...ctx, db: tx };
    await lockAuthoring(c);
    const { groupId } = await checkTemplate(c, f);
    const built = f.channel === "email" ? await buildTemplate(c, f) : null;
    const row = {
      name: f.name,
      subject: f.channel === "email" ? f.subject : "",
      text: f.text,
      html: f.html,
      format: f.format,
      layoutId: f.layoutId,
      groupId,
      transactional: f.transactional,
      locales: f.locales,
      tags: f.tags,
    };
    let id = input.id;
    try {
      if (id)
        await tx
          .update(messageTemplates)
          // The clock, not the transaction's start: two edits in one transaction must not share it.
          .set({ ...row, updatedAt: sql`clock_timestamp()` })
          .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, id)));
      else
        id = (
          await tx
            .insert(messageTemplates)
            .values({ projectId: ctx.projectId, channel: f.channel, ...row })
            .returning({ id: messageTemplates.id })
        )[0]!.id;
    } catch (err) {
      if (errorCode(err) === UNIQUE_VIOLATION) throw nameTaken(f.name);
      throw err;
    }
    const { id: versionId } = await saveVersion(c, {
      kind: "template",
      ownerId: id,
      content: {
        name: f.name,
        format: f.format,
        layout_id: f.layoutId,
        subject: row.subject,
        text: f.text,
        html: f.html,
        locales: f.locales,
        transactional: f.transactional,
        group_id: groupId,
      },
    });
    await tx
      .update(messageTemplates)
      .set({ versionId, buildId: null })
      .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, id)));
    if (built) await storeBuild(c, { templateId: id, templateVersionId: versionId, built });
    return id;
  });
}
