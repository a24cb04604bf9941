import { and, asc, desc, eq } from "drizzle-orm";
import { subscriptionChanges, subscriptionGroups, userChannelOptOuts, userSubscriptions } from "@/db/schema";
import { effectiveState } from "./group-view";
import type { UserSubscriptionView } from "./schemas";
import { loadSettings } from "./settings";
import type { ProjectContext } from "@/lib/access/context";

export const HISTORY_LIMIT = 50;

/**
 * Every group of the project with this user's state in it (null when unset), what sending would use,
 * and the group's change history, newest first. Whole-channel changes (SMS STOP) appear in the history
 * of every group on that channel.
 */
export async function loadUserSubscriptions(ctx: ProjectContext, userId: string): Promise<UserSubscriptionView[]> {
  const { defaultPolicy } = await loadSettings(ctx);
  const groups = await ctx.db
    .select()
    .from(subscriptionGroups)
    .where(eq(subscriptionGroups.projectId, ctx.projectId))
    .orderBy(asc(subscriptionGroups.name));
  if (!groups.length) return [];
  const states = await ctx.db
    .select()
    .from(userSubscriptions)
    .where(and(eq(userSubscriptions.projectId, ctx.projectId), eq(userSubscriptions.userId, userId)));
  const optOuts = await ctx.db
    .select()
    .from(userChannelOptOuts)
    .where(and(eq(userChannelOptOuts.projectId, ctx.projectId), eq(userChannelOptOuts.userId, userId)));
  const history = await ctx.db
    .select()
    .from(subscriptionChanges)
    .where(and(eq(subscriptionChanges.projectId, ctx.projectId), eq(subscriptionChanges.userId, userId)))
    .orderBy(desc(subscriptionChanges.createdAt), desc(subscriptionChanges.id))
    .limit(HISTORY_LIMIT * 4);
  const byGroup = new Map(states.map((s) => [s.groupId, s]));
  const optedOut = new Set(optOuts.map((o) => o.channel));
  return groups.map((g) => {
    const s = byGroup.get(g.id);
    const policy = g.defaultPolicy ?? defaultPolicy;
    return {
      group_id: g.id,
      group: g.name,
      description: g.description,
      channel: g.channel,
      state: s?.state ?? null,
      effective_state: effectiveState(s?.state ?? null, policy, optedOut.has(g.channel)),
      effective_policy: policy,
      channel_opted_out: optedOut.has(g.channel),
      updated_at: s?.updatedAt.toISOString() ?? null,
      history: history
        .filter((h) => h.groupId === g.id || (h.groupId === null && h.channel === g.channel))
        .slice(0, HISTORY_LIMIT)
        .map((h) => ({
          previous_state: h.previousState,
          state: h.state,
          source: h.source,
          detail: h.detail,
          at: h.createdAt.toISOString(),
        })),
    };
  });
}
