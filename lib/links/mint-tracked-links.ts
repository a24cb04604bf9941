import type { z } from "zod";
import { requireUser } from "@/lib/users/require-user";
import type { mintLinksInput } from "./schemas";
import { linkToken } from "./tokens";
import type { ProjectContext } from "@/lib/access/context";

/** Signs one tracked link per URL for a campaign and recipient. Nothing is stored: the token is the link. */
export async function mintTrackedLinks(
  ctx: ProjectContext,
  { body: input, origin }: { body: z.output<typeof mintLinksInput>; origin: string },
) {
  const user = await requireUser(ctx, { userId: input.user_id });
  return {
    campaign_id: input.campaign_id,
    user_id: user.id,
    links: input.urls.map((url) => ({
      original_url: url,
      tracked_url: `${origin}/l/${linkToken({ projectId: ctx.projectId, campaignId: input.campaign_id, userId: user.id, url })}`,
    })),
  };
}
