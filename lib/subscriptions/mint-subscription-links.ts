import type { z } from "zod";
import { requireUser } from "@/lib/users/require-user";
import { resolveGroup } from "./resolve-groups";
import type { subscriptionLinksInput } from "./schemas";
import { preferencesPath, preferencesToken, unsubscribePath, unsubscribeToken } from "./tokens";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Signed links for one user to put in a message: the preference center, and with a group the one-click
 * unsubscribe URL plus the RFC 8058 headers that point mail clients at it.
 */
export async function mintSubscriptionLinks(
  ctx: ProjectContext,
  { body: input, origin }: { body: z.output<typeof subscriptionLinksInput>; origin: string },
) {
  const user = await requireUser(ctx, { userId: input.user_id });
  const preferences_url = origin + preferencesPath(preferencesToken({ projectId: ctx.projectId, userId: user.id }));
  if (!input.group) return { preferences_url, unsubscribe_url: null, headers: {} };
  const group = await resolveGroup(ctx, { ref: input.group });
  const unsubscribe_url =
    origin + unsubscribePath(unsubscribeToken({ projectId: ctx.projectId, userId: user.id, groupId: group.id }));
  return {
    preferences_url,
    unsubscribe_url,
    headers: { "List-Unsubscribe": `<${unsubscribe_url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
