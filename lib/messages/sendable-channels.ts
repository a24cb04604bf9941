import { eq } from "drizzle-orm";
import { messageProviders, type SendChannel } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";

/** The channels this project can send on: e-mail with a provider or the deployment's SMTP_URL; SMS with a provider. */
export async function sendableChannels(ctx: ProjectContext): Promise<Set<SendChannel>> {
  const rows = await ctx.db
    .select({ channel: messageProviders.channel })
    .from(messageProviders)
    .where(eq(messageProviders.projectId, ctx.projectId));
  const channels = new Set(rows.map((r) => r.channel));
  if (process.env.SMTP_URL) channels.add("email");
  return channels;
}
