import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { configuredOrigin, publicOrigin } from "@/lib/http/public-origin";
import { BUDGETS } from "@/lib/http/budgets";
import { NotFound } from "@/lib/http/errors";
import { limitOrThrow } from "@/lib/http/rate-limit";
import { messageViews } from "./message-view";
import { mayMintLinks, renderMessage } from "@/lib/templates/render-message";
import { loadSendFacts } from "./send-facts";
import { messageEvents } from "@/lib/feedback/message-events";

/** One message with its content rendered now from its template (null when it no longer renders) and its reports. */
export async function getMessage(ctx: ProjectContext, { id, origin }: { id: string; origin?: string }) {
  const [view] = await messageViews(ctx, { where: sql`m.id = ${id}::uuid`, limit: 1 });
  if (!view) throw new NotFound("No message with this id in this project.");
  const [facts] = await loadSendFacts(ctx, { keys: [{ projectId: ctx.projectId, id }], render: true });
  let content = null;
  if (facts)
    try {
      await limitOrThrow("render:project", ctx.projectId, BUDGETS.rendersPerProject(), "of renders for this project");
      const r = renderMessage(facts, origin ?? configuredOrigin() ?? publicOrigin(), {
        placeholders: !mayMintLinks(ctx.actor),
      });
      content = { locale: r.locale, subject: r.subject, text: r.text, html: r.html };
    } catch {
      // Past the render budget (RATE_LIMIT_RENDERS), as when it no longer renders: shown without content.
    }
  return { ...view, content, events: await messageEvents(ctx, { messageId: id }) };
}
