import type { SubscriptionGroup, SubscriptionPolicy, SubscriptionState } from "@/db/schema";
import type { UserSubscriptionView } from "./schemas";

export function toGroupView(g: SubscriptionGroup, projectPolicy: SubscriptionPolicy) {
  return {
    id: g.id,
    name: g.name,
    channel: g.channel,
    description: g.description,
    default_policy: g.defaultPolicy,
    effective_policy: g.defaultPolicy ?? projectPolicy,
    created_at: g.createdAt.toISOString(),
    updated_at: g.updatedAt.toISOString(),
  };
}

/** The state sending uses: the explicit one, else the policy's default, and never through a channel opt-out. */
export function effectiveState(
  explicit: SubscriptionState | null,
  policy: SubscriptionPolicy,
  channelOptedOut: boolean,
): SubscriptionState {
  if (channelOptedOut) return "unsubscribed";
  return explicit ?? (policy === "opt_out" ? "subscribed" : "unsubscribed");
}

/** What the page shows as chosen: the explicit state, else the policy's default (an SMS STOP is shown apart). */
export function shownState(s: UserSubscriptionView): SubscriptionState {
  return s.state ?? (s.effective_policy === "opt_out" ? "subscribed" : "unsubscribed");
}
