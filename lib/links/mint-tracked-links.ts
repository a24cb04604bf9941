import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { users } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { mintLinksInput } from "./schemas";
import { linkToken } from "./tokens";
import type { ProjectContext } from "@/lib/access/context";

/** Signs one tracked link per URL for a campaign and recipient. Nothing is stored: the token is the link. */
export async function mintTrackedLinks(ctx: ProjectContext, input: z.output<typeof mintLinksInput>, origin: string) {
  const [user] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.projectId, ctx.projectId), eq(users.id, input.user_id)));
  if (!user)
    throw new NotFound("No user with this id in this project.", {
      errors: [{ path: "user_id", message: "matches no user" }],
    });
  return {
    campaign_id: input.campaign_id,
    user_id: user.id,
    links: input.urls.map((url) => ({
      original_url: url,
      tracked_url: `${origin}/l/${linkToken({ projectId: ctx.projectId, campaignId: input.campaign_id, userId: user.id, url })}`,
    })),
  };
}
