import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { subscriptionSettings, type SubscriptionPolicy } from "@/db/schema";

export interface ProjectSubscriptionSettings {
  defaultPolicy: SubscriptionPolicy;
  twilioAuthToken: string | null;
}

/** A project without a settings row subscribes by default (opt_out) and has no Twilio token. */
export async function loadSettings(tx: DbOrTx, projectId: string): Promise<ProjectSubscriptionSettings> {
  const [row] = await tx.select().from(subscriptionSettings).where(eq(subscriptionSettings.projectId, projectId));
  return { defaultPolicy: row?.defaultPolicy ?? "opt_out", twilioAuthToken: row?.twilioAuthToken ?? null };
}
