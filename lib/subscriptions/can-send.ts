import { eq } from "drizzle-orm";
import { inProject } from "@/lib/db/in-project";
import { userChannelOptOuts, userSubscriptions, type MessageChannel } from "@/db/schema";
import { requireUser } from "@/lib/users/require-user";
import { resolveGroup } from "./resolve-groups";
import { loadSettings } from "./settings";
import type { ProjectContext } from "@/lib/access/context";

export type SendReason =
  | "subscribed"
  | "subscribed_by_default"
  | "unsubscribed"
  | "not_opted_in"
  | "channel_opted_out"
  | "channel_mismatch";

/**
 * The sending filter: may a message of `group` go to this user over `channel`? An explicit state wins;
 * unset follows the group's policy, else the project's; a whole-channel opt-out (SMS STOP) refuses
 * everything on that channel. Senders call it per message (through GET /subscriptions/check); journey
 * entries record the channel part of it at entry (`sendable`, lib/journeys/enter-journeys.ts).
 */
export async function canSend(ctx: ProjectContext, input: { userId: string; group: string; channel?: MessageChannel }) {
  const user = await requireUser(ctx, { userId: input.userId });
  const group = await resolveGroup(ctx, { ref: input.group });
  const channel = input.channel ?? group.channel;
  const policy = group.defaultPolicy ?? (await loadSettings(ctx)).defaultPolicy;
  const [row] = await ctx.db
    .select({ state: userSubscriptions.state })
    .from(userSubscriptions)
    .where(
      inProject(ctx, userSubscriptions, eq(userSubscriptions.userId, user.id), eq(userSubscriptions.groupId, group.id)),
    );
  const state = row?.state ?? null;
  const decide = (allowed: boolean, reason: SendReason) => ({
    allowed,
    reason,
    state,
    effective_policy: policy,
    channel,
  });
  // A group's messages go out on its channel only; asking about another channel is a caller's mistake, answered "no".
  if (channel !== group.channel) return decide(false, "channel_mismatch");
  const [optOut] = await ctx.db
    .select({ c: userChannelOptOuts.channel })
    .from(userChannelOptOuts)
    .where(
      inProject(
        ctx,
        userChannelOptOuts,
        eq(userChannelOptOuts.userId, user.id),
        eq(userChannelOptOuts.channel, channel),
      ),
    );
  if (optOut) return decide(false, "channel_opted_out");
  if (state === "subscribed") return decide(true, "subscribed");
  if (state === "unsubscribed") return decide(false, "unsubscribed");
  return policy === "opt_out" ? decide(true, "subscribed_by_default") : decide(false, "not_opted_in");
}
