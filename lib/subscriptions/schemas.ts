import { z } from "zod";
import { identifierList } from "@/lib/identity/schemas";
import { text } from "@/lib/http/json-value";

export const channel = z.enum(["email", "sms", "push"]).meta({ id: "MessageChannel" });
export const policy = z.enum(["opt_out", "opt_in"]).meta({
  id: "SubscriptionPolicy",
  description:
    "`opt_out`: an unset state counts as subscribed (subscribe by default). `opt_in`: only an explicit subscribe counts.",
});
export const state = z.enum(["subscribed", "unsubscribed"]).meta({ id: "SubscriptionState" });
export const source = z
  .enum(["client_api", "admin_api", "console", "one_click", "unsubscribe_page", "preference_center", "sms"])
  .meta({ id: "SubscriptionSource" });

/** A group is named by its id or its name (case-insensitive). */
export const groupRef = text(200).min(1).meta({ description: "The group's id or its name (case-insensitive)." });

export const groupInput = z
  .strictObject({
    name: text(100).trim().min(1),
    channel,
    description: text(500).nullable().optional(),
    default_policy: policy
      .nullable()
      .optional()
      .meta({ description: "Overrides the project's default for this group; null follows the project." }),
  })
  .meta({ id: "SubscriptionGroupInput" });

export const groupPatch = groupInput.partial().meta({ id: "SubscriptionGroupPatch" });

export const groupOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    channel,
    description: z.string().nullable(),
    default_policy: policy.nullable(),
    effective_policy: policy,
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "SubscriptionGroup" });

export const settingsPatch = z
  .strictObject({
    default_policy: policy.optional(),
    twilio_auth_token: text(200)
      .min(8)
      .nullable()
      .optional()
      .meta({ description: "Verifies inbound SMS webhooks. Write-only; null removes it." }),
  })
  .meta({ id: "SubscriptionSettingsPatch" });

export const settingsOutput = z
  .object({
    default_policy: policy,
    twilio_auth_token_set: z.boolean(),
    sms_webhook_url: z
      .string()
      .meta({ description: "Paste into Twilio as the number's incoming-message webhook (HTTP POST)." }),
  })
  .meta({ id: "SubscriptionSettings" });

const change = z.strictObject({
  group: groupRef,
  state: state.nullable().meta({ description: "null returns the user to unset." }),
});
const changeList = z
  .array(change)
  .min(1)
  .max(100)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((c, i) => {
      const k = c.group.toLowerCase();
      if (seen.has(k)) ctx.addIssue({ code: "custom", path: [i, "group"], message: "names the same group twice" });
      seen.add(k);
    });
  });

export const clientSubscriptionsInput = z
  .strictObject({ identifier: identifierList, subscriptions: changeList })
  .meta({ id: "UserSubscriptionsInput" });

export const adminSubscriptionsInput = z
  .strictObject({ subscriptions: changeList })
  .meta({ id: "AdminUserSubscriptionsInput" });

export type SubscriptionChangeInput = z.output<typeof change>;

export const historyEntry = z
  .object({
    previous_state: state.nullable(),
    state: state.nullable(),
    source,
    detail: z.record(z.string(), z.unknown()),
    at: z.iso.datetime(),
  })
  .meta({ id: "SubscriptionChange" });

export const userSubscriptionOutput = z
  .object({
    group_id: z.uuid(),
    group: z.string(),
    description: z.string().nullable(),
    channel,
    state: state.nullable().meta({ description: "The explicit state; null when unset." }),
    effective_state: state.meta({
      description:
        "What sending uses: the state, else the policy's default; unsubscribed while the channel is opted out.",
    }),
    effective_policy: policy,
    channel_opted_out: z.boolean().meta({ description: "True after an SMS STOP, until START/UNSTOP." }),
    updated_at: z.iso.datetime().nullable(),
    history: z.array(historyEntry).meta({ description: "Newest first (at most 50)." }),
  })
  .meta({ id: "UserSubscription" });

export type UserSubscriptionView = z.infer<typeof userSubscriptionOutput>;

export const canSendQuery = z.strictObject({
  user_id: z.uuid(),
  group: groupRef,
  channel: channel.optional().meta({ description: "Defaults to the group's channel." }),
});

export const canSendOutput = z
  .object({
    allowed: z.boolean(),
    reason: z.enum([
      "subscribed",
      "subscribed_by_default",
      "unsubscribed",
      "not_opted_in",
      "channel_opted_out",
      "channel_mismatch",
    ]),
    state: state.nullable(),
    effective_policy: policy,
    channel,
  })
  .meta({ id: "SendDecision" });

export const subscriptionLinksInput = z
  .strictObject({
    user_id: z.uuid(),
    group: groupRef.optional().meta({ description: "Omit for a preference-center link only." }),
  })
  .meta({ id: "SubscriptionLinksInput" });

export const subscriptionLinksOutput = z
  .object({
    preferences_url: z.string(),
    unsubscribe_url: z
      .string()
      .nullable()
      .meta({ description: "GET shows a confirmation page; POST unsubscribes (RFC 8058)." }),
    headers: z.record(z.string(), z.string()).meta({
      description: "`List-Unsubscribe` and `List-Unsubscribe-Post` to put on the message (when a group is given).",
    }),
  })
  .meta({ id: "SubscriptionLinks" });
