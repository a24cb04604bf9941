import type { z } from "zod";
import { messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import { Conflict } from "@/lib/http/errors";
import { checkTemplate } from "./check-template";
import { getTemplate } from "./get-template";
import type { createTemplateBody } from "./schemas";

export const nameTaken = (name: string) =>
  new Conflict(`A template named "${name}" exists in this project.`, {
    errors: [{ path: "name", message: "already used" }],
  });

/** Creates a template once every part compiles. */
export async function createTemplate(ctx: ProjectContext, input: z.output<typeof createTemplateBody>) {
  const { groupId } = await checkTemplate(ctx, {
    ...input,
    group: input.subscription_group ?? null,
  });
  try {
    const [row] = await ctx.db
      .insert(messageTemplates)
      .values({
        projectId: ctx.projectId,
        name: input.name,
        channel: input.channel,
        subject: input.channel === "email" ? input.subject : "",
        text: input.text,
        html: input.html,
        groupId,
        transactional: input.transactional,
        locales: input.locales,
      })
      .returning({ id: messageTemplates.id });
    return getTemplate(ctx, row!.id);
  } catch (err) {
    if (errorCode(err) === UNIQUE_VIOLATION) throw nameTaken(input.name);
    throw err;
  }
}
