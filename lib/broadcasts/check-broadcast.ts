import { and, eq, inArray } from "drizzle-orm";
import { lists, messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { Invalid, NotFound } from "@/lib/http/errors";

/** The template and list a broadcast names must be this project's (404 naming the field otherwise). */
export async function checkBroadcastRefs(ctx: ProjectContext, refs: { templateId?: string; listId?: string }) {
  if (refs.templateId) {
    const [t] = await ctx.db
      .select({ id: messageTemplates.id })
      .from(messageTemplates)
      .where(and(eq(messageTemplates.projectId, ctx.projectId), eq(messageTemplates.id, refs.templateId)));
    if (!t)
      throw new NotFound("No template with this id in this project.", {
        errors: [{ path: "template_id", message: "no such template" }],
      });
  }
  if (refs.listId) {
    const [l] = await ctx.db
      .select({ id: lists.id })
      .from(lists)
      .where(and(eq(lists.projectId, ctx.projectId), eq(lists.id, refs.listId)));
    if (!l)
      throw new NotFound("No list with this id in this project.", {
        errors: [{ path: "list_id", message: "no such list" }],
      });
  }
}

/**
 * An A/B test's variants must be this project's templates of one channel with the broadcast's template
 * (404 naming the variant otherwise); a conversion test needs the broadcast's goal, and a test does not go
 * with `in_user_timezone` (400).
 */
export async function checkBroadcastTest(
  ctx: ProjectContext,
  input: {
    templateId: string;
    variants: { template_id: string }[] | null;
    test: { metric: string } | null;
    hasGoal: boolean;
    inUserTimezone: boolean;
  },
) {
  if (!input.variants) return;
  // The held messages are released when the test is decided, at one time for all: not in users' zones.
  if (input.inUserTimezone)
    throw new Invalid("An A/B test sends the rest at once when decided, not in users' time zones.", {
      errors: [{ path: "in_user_timezone", message: "not with `variants`" }],
    });
  const ids = [input.templateId, ...input.variants.map((v) => v.template_id)];
  const found = await ctx.db
    .select({ id: messageTemplates.id, channel: messageTemplates.channel })
    .from(messageTemplates)
    .where(and(eq(messageTemplates.projectId, ctx.projectId), inArray(messageTemplates.id, ids)));
  const channel = found.find((t) => t.id === input.templateId)?.channel;
  for (const [i, v] of input.variants.entries()) {
    const t = found.find((x) => x.id === v.template_id);
    if (!t)
      throw new NotFound("No template with this id in this project.", {
        errors: [{ path: `variants[${i}].template_id`, message: "no such template" }],
      });
    if (channel && t.channel !== channel)
      throw new Invalid("Every variant must be of the broadcast template's channel.", {
        errors: [{ path: `variants[${i}].template_id`, message: `not a ${channel} template` }],
      });
  }
  if (input.test?.metric === "conversion" && !input.hasGoal)
    throw new Invalid("A conversion test needs the broadcast's goal.", {
      errors: [{ path: "test.metric", message: "a conversion test needs `goal`" }],
    });
}
