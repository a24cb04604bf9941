import { sql } from "drizzle-orm";
import type { z } from "zod";
import { subscriptionSettings } from "@/db/schema";
import { seal } from "@/lib/signing/seal";
import { getSettings } from "./get-settings";
import type { settingsPatch } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

/** Upserts the project's settings; fields left out keep their value. */
export async function updateSettings(
  ctx: ProjectContext,
  { patch, origin }: { patch: z.output<typeof settingsPatch>; origin: string },
) {
  const set = {
    ...(patch.default_policy !== undefined ? { defaultPolicy: patch.default_policy } : {}),
    // Stored sealed (AES-GCM under the server secret), never as given.
    ...(patch.twilio_auth_token !== undefined
      ? { twilioAuthToken: patch.twilio_auth_token === null ? null : seal(patch.twilio_auth_token) }
      : {}),
  };
  await ctx.db
    .insert(subscriptionSettings)
    .values({ projectId: ctx.projectId, ...set })
    .onConflictDoUpdate({ target: subscriptionSettings.projectId, set: { ...set, updatedAt: sql`now()` } });
  return getSettings(ctx, origin);
}
