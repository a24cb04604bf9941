import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { configuredOrigin, publicOrigin } from "@/lib/http/public-origin";
import { NotFound } from "@/lib/http/errors";
import { messageViews } from "./message-view";
import { renderMessage } from "@/lib/templates/render-message";
import { loadSendFacts } from "./send-facts";

/** One message with its content rendered now from its template (null when it no longer renders). */
export async function getMessage(ctx: ProjectContext, { id, origin }: { id: string; origin?: string }) {
  const [view] = await messageViews(ctx, { where: sql`m.id = ${id}::uuid`, limit: 1 });
  if (!view) throw new NotFound("No message with this id in this project.");
  const [facts] = await loadSendFacts(ctx, { keys: [{ projectId: ctx.projectId, id }], render: true });
  let content = null;
  if (facts)
    try {
      const r = renderMessage(facts, origin ?? configuredOrigin() ?? publicOrigin());
      content = { locale: r.locale, subject: r.subject, text: r.text, html: r.html };
    } catch {}
  return { ...view, content };
}
