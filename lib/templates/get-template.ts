import { eq } from "drizzle-orm";
import { messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { templateRows, toTemplateView, type TemplateView } from "./template-view";

/** One template; 404 when this project has none with this id (another project's included). */
export async function getTemplate(ctx: ProjectContext, id: string): Promise<TemplateView> {
  const [row] = await templateRows(ctx, eq(messageTemplates.id, id));
  if (!row) throw new NotFound("No template with this id in this project.");
  return toTemplateView(row.t, row.g?.id ? row.g : null, row.version);
}
