import { and, eq } from "drizzle-orm";
import { messageProviders } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { forgetProviders } from "./load-provider";
import { closeProviderPool } from "./smtp-pool";

/**
 * Deletes a provider: e-mail then falls back to the deployment's SMTP_URL where that serves projects
 * (development, or DEPLOYMENT_SMTP_FOR_PROJECTS=true); SMS messages fail until another is added.
 */
export async function deleteProvider(ctx: ProjectContext, id: string): Promise<void> {
  const rows = await ctx.db
    .delete(messageProviders)
    .where(and(eq(messageProviders.projectId, ctx.projectId), eq(messageProviders.id, id)))
    .returning({ id: messageProviders.id });
  if (!rows.length) throw new NotFound("No provider with this id in this project.");
  forgetProviders(ctx.projectId);
  // Another process's pool of it closes when idle (smtp-pool.ts).
  closeProviderPool(id);
}
