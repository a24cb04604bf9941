import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { getTemplate } from "./get-template";
import { saveTemplate } from "./save-template";
import type { createTemplateBody } from "./schemas";

export { nameTaken } from "./save-template";

/** Creates a template once every part compiles and its html builds; its first version. */
export async function createTemplate(ctx: ProjectContext, input: z.output<typeof createTemplateBody>) {
  const id = await saveTemplate(ctx, {
    fields: {
      ...input,
      layoutId: input.layout_id ?? null,
      group: input.subscription_group ?? null,
    },
  });
  return getTemplate(ctx, id);
}
