import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
import { dataObject } from "@/lib/http/json-value";
import { identifierList } from "@/lib/identity/schemas";
import { MAX_TEMPLATE_CHARS } from "./liquid";

export const sendChannel = z.enum(["email", "sms"]).meta({ id: "SendChannel" });
const part = z.string().max(MAX_TEMPLATE_CHARS);
const localeKey = z
  .string()
  .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,2}$/, "a locale like `de` or `de-AT`")
  .max(20);

export const templateVariant = z
  .strictObject({ subject: part.optional(), text: part.optional(), html: part.optional() })
  .meta({ id: "TemplateVariant", description: "A locale's parts; a part left out is the default's." });

// Without its default: the update schema takes it as optional, and a default there would reset a
// template's locales on every PATCH that leaves them out.
const templateLocales = z
  .record(localeKey, templateVariant)
  .refine((r) => Object.keys(r).length <= 50, "at most 50 locales");

const templateFields = {
  name: z.string().trim().min(1).max(100),
  channel: sendChannel,
  subject: part.default("").meta({ description: "Liquid. E-mail only; ignored for SMS." }),
  text: part.default("").meta({ description: "Liquid: the plain-text body (the SMS body)." }),
  html: part.default("").meta({
    description: "Liquid: the HTML body (e-mail). Outputs are HTML-escaped; its http(s) links become tracked links.",
  }),
  subscription_group: z.string().trim().min(1).max(200).nullable().optional().meta({
    description: "The subscription group (id or name) the messages belong to; required unless `transactional`.",
  }),
  transactional: z.boolean().default(false).meta({
    description: "Receipts, password resets: exempt from subscriptions, frequency caps and quiet hours.",
  }),
  locales: templateLocales.default({}),
};

export const createTemplateBody = z.strictObject(templateFields).meta({ id: "CreateTemplate" });

export const updateTemplateBody = z
  .strictObject({
    name: templateFields.name.optional(),
    subject: part.optional(),
    text: part.optional(),
    html: part.optional(),
    subscription_group: templateFields.subscription_group,
    transactional: z.boolean().optional(),
    locales: templateLocales.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "send at least one field to change")
  .meta({ id: "UpdateTemplate", description: "The fields to change; what is omitted is kept. The channel is fixed." });

export const templateOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    channel: sendChannel,
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    subscription_group: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    transactional: z.boolean(),
    locales: z.record(z.string(), templateVariant),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Template" });

export const previewTemplateBody = z
  .strictObject({
    user_id: z.uuid().optional(),
    identifier: identifierList.optional().meta({ description: "The user by their identifiers, instead of `user_id`." }),
    context: dataObject("context")
      .optional()
      .meta({ description: "`journey.<key>` values for the preview (a journey entry's context)." }),
  })
  .refine((b) => (b.user_id ? 1 : 0) + (b.identifier ? 1 : 0) === 1, "give exactly one of user_id and identifier")
  .meta({ id: "PreviewTemplate" });

export const previewOutput = z
  .object({ locale: z.string().nullable(), subject: z.string(), text: z.string(), html: z.string() })
  .meta({ id: "TemplatePreview" });

export const testTemplateBody = z
  .strictObject({
    to: z.string().trim().min(3).max(320).meta({ description: "An e-mail address or an E.164 phone number." }),
    user_id: z.uuid().optional().meta({ description: "Render as this user; without it, with an empty user." }),
  })
  .meta({ id: "TestTemplate" });

export const testSendOutput = z
  .object({
    sent: z.boolean(),
    provider_message_id: z.string().nullable(),
    reason: z.string().nullable().meta({ description: "The provider's answer when it refused." }),
  })
  .meta({ id: "TestSendResult" });

export const listTemplatesQuery = paginationQuery.extend({ channel: sendChannel.optional() });

/** `"1 day"`, `"12 hours"`, `"30 minutes"`, `"1 week"`: read by PostgreSQL as an interval. */
export const capWindow = z.string().regex(/^[1-9][0-9]{0,3} (minute|hour|day|week)s?$/, 'like "1 day" or "12 hours"');

export const messageSettings = {
  frequency_cap: z
    .strictObject({
      email: z.strictObject({ count: z.number().int().min(1).max(1000), per: capWindow }).optional(),
      sms: z.strictObject({ count: z.number().int().min(1).max(1000), per: capWindow }).optional(),
    })
    .nullable()
    .meta({
      description:
        'Per channel, at most `count` non-transactional messages per user within `per` ("1 day"); more are skipped with reason `frequency_cap`. null: no cap.',
    }),
  quiet_hours: z
    .strictObject({
      start: z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, '"HH:MM"'),
      end: z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, '"HH:MM"'),
    })
    .nullable()
    .meta({
      description:
        "Wall-clock hours in each user's time zone (UTC when unknown) when non-transactional messages wait; they go at `end`. null: none.",
    }),
};

const providerName = z.string().trim().min(1).max(100);
const fromAddress = z.string().trim().min(3).max(320);
const ratePerSecond = z.number().int().min(1).max(10_000).nullable().meta({
  description: "Messages per second handed to the provider by all workers together; null: as fast as it takes them.",
});
export const smtpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "smtp:" || u.protocol === "smtps:") && !!u.hostname;
    } catch {
      return false;
    }
  }, "an smtp:// or smtps:// URL")
  .meta({
    description:
      "`smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. Stored sealed; answered with the password masked. Its host gets the destinations' address checks (DESTINATIONS_ALLOW_HOSTS for private ones).",
  });
const apiBase = z
  .string()
  .trim()
  .max(2048)
  .url()
  .meta({ description: "Twilio's API by default; another service speaking its Messages API (same address checks)." });

export const createProviderBody = z
  .discriminatedUnion("kind", [
    z.strictObject({
      channel: z.literal("email"),
      kind: z.literal("smtp"),
      name: providerName,
      url: smtpUrl,
      from: fromAddress.meta({ description: '"Name <address>" the messages are from.' }),
      rate_per_second: ratePerSecond.optional(),
    }),
    z.strictObject({
      channel: z.literal("sms"),
      kind: z.literal("twilio"),
      name: providerName,
      account_sid: z.string().trim().min(1).max(64),
      auth_token: z.string().min(1).max(256).meta({ description: "Stored sealed; never answered." }),
      from: fromAddress.meta({ description: "The sending number (E.164) or messaging service." }),
      api_base: apiBase.optional(),
      rate_per_second: ratePerSecond.optional(),
    }),
  ])
  .meta({ id: "CreateProvider" });

export const updateProviderBody = z
  .strictObject({
    name: providerName.optional(),
    url: smtpUrl.optional(),
    from: fromAddress.optional(),
    account_sid: z.string().trim().min(1).max(64).optional(),
    auth_token: z.string().min(1).max(256).optional(),
    api_base: apiBase.optional(),
    rate_per_second: ratePerSecond.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "send at least one field to change")
  .meta({
    id: "UpdateProvider",
    description: "The fields to change (of the provider's kind); what is omitted is kept.",
  });

export const providerOutput = z
  .object({
    id: z.uuid(),
    channel: sendChannel,
    kind: z.enum(["smtp", "twilio"]),
    name: z.string(),
    from: z.string(),
    url: z.string().nullable().meta({ description: "SMTP: the URL with its password masked (`****`)." }),
    account_sid: z.string().nullable(),
    api_base: z.string().nullable(),
    rate_per_second: z.number().int().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Provider", description: "A provider as answered: never its password or auth token." });

export const messageState = z.enum(["queued", "sent", "skipped", "failed"]).meta({ id: "MessageState" });

export const listMessagesQuery = paginationQuery.extend({
  user_id: z.uuid().optional(),
  template_id: z.uuid().optional(),
  journey_id: z.uuid().optional(),
  broadcast_id: z.uuid().optional(),
  state: messageState.optional(),
});

export const messageOutput = z
  .object({
    id: z.uuid(),
    channel: sendChannel,
    template: z.object({ id: z.uuid(), name: z.string() }),
    user_id: z.uuid(),
    recipient: z.string().nullable().meta({ description: "The address or number it went to (once tried)." }),
    state: messageState,
    reason: z.string().nullable().meta({
      description:
        "Skipped: `no_contact`, `unsubscribed`, `not_opted_in`, `channel_opted_out`, `frequency_cap`, `cancelled`. Failed: the provider's answer or the template's error. Queued: why it waits (`quiet_hours`, the last transient error).",
    }),
    attempts: z.number().int(),
    provider_message_id: z.string().nullable(),
    subject: z.string().nullable().meta({ description: "The rendered subject (e-mail), once tried." }),
    locale: z.string().nullable().meta({ description: "The template variant used; null: the default." }),
    cause: z.object({
      journey_id: z.uuid().nullable(),
      journey_entry_id: z.uuid().nullable(),
      journey_step_key: z.string().nullable(),
      broadcast_id: z.uuid().nullable(),
    }),
    next_attempt_at: z.iso.datetime().nullable().meta({ description: "When a queued message is due." }),
    created_at: z.iso.datetime(),
    finished_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "Message" });

export const messageDetailOutput = messageOutput
  .extend({
    content: previewOutput.nullable().meta({
      description:
        "The message rendered now from its template (as it would be sent today: a template changed since shows its new text); null when it no longer renders.",
    }),
  })
  .meta({ id: "MessageDetail" });

export const broadcastState = z.enum(["scheduled", "sending", "done", "cancelled"]).meta({ id: "BroadcastState" });

const broadcastFields = {
  name: z.string().trim().min(1).max(100),
  template_id: z.uuid(),
  list_id: z.uuid(),
  send_at: z.iso.datetime({ offset: true }).meta({
    description:
      "When to send. With `in_user_timezone`, its wall-clock date and time (read as UTC) is used in each recipient's zone, and sending starts up to 14 hours earlier.",
  }),
  in_user_timezone: z.boolean().default(false),
  rate_per_second: z.number().int().min(1).max(10_000).nullable().default(null).meta({
    description:
      "At most this many of the broadcast's messages a second (all workers together); null: the provider's pace.",
  }),
};

export const createBroadcastBody = z
  .strictObject({
    ...broadcastFields,
    send_at: broadcastFields.send_at.optional().meta({ description: "Default: now." }),
  })
  .meta({ id: "CreateBroadcast" });

export const updateBroadcastBody = z
  .strictObject({
    name: broadcastFields.name.optional(),
    template_id: z.uuid().optional(),
    list_id: z.uuid().optional(),
    send_at: broadcastFields.send_at.optional(),
    in_user_timezone: z.boolean().optional(),
    rate_per_second: z.number().int().min(1).max(10_000).nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "send at least one field to change")
  .meta({ id: "UpdateBroadcast", description: "Only while `scheduled`; what is omitted is kept." });

export const broadcastOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    template_id: z.uuid(),
    list_id: z.uuid(),
    send_at: z.iso.datetime(),
    in_user_timezone: z.boolean(),
    rate_per_second: z.number().int().nullable(),
    state: broadcastState,
    counts: z
      .object({
        recipients: z.number().int().nullable().meta({ description: "The list's members when sending started." }),
        queued: z.number().int(),
        sent: z.number().int(),
        skipped: z.number().int(),
        failed: z.number().int(),
      })
      .meta({ description: "`done` when every recipient's message is final: queued is 0." }),
    started_at: z.iso.datetime().nullable(),
    finished_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Broadcast" });

export const listBroadcastsQuery = paginationQuery.extend({ state: broadcastState.optional() });
