import { eq } from "drizzle-orm";
import { subscriptionSettings, type SubscriptionPolicy } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";

export interface ProjectSubscriptionSettings {
  defaultPolicy: SubscriptionPolicy;
  twilioAuthToken: string | null;
}

/** A project without a settings row subscribes by default (opt_out) and has no Twilio token. */
export async function loadSettings(ctx: ProjectContext): Promise<ProjectSubscriptionSettings> {
  const [row] = await ctx.db
    .select()
    .from(subscriptionSettings)
    .where(eq(subscriptionSettings.projectId, ctx.projectId));
  return { defaultPolicy: row?.defaultPolicy ?? "opt_out", twilioAuthToken: row?.twilioAuthToken ?? null };
}
