import { asc, eq } from "drizzle-orm";
import { messageProviders } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { toProviderView } from "./provider-view";
import { deploymentSmtpForProjects } from "./transports";

/** The project's providers (at most one per channel), and whether the deployment's SMTP_URL stands in for e-mail. */
export async function listProviders(ctx: ProjectContext) {
  const rows = await ctx.db
    .select()
    .from(messageProviders)
    .where(eq(messageProviders.projectId, ctx.projectId))
    .orderBy(asc(messageProviders.channel));
  return {
    data: rows.map(toProviderView),
    next_cursor: null,
    deployment_email: Boolean(process.env.SMTP_URL) && deploymentSmtpForProjects(),
  };
}
