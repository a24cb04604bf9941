import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
import { dataObject, text } from "@/lib/http/json-value";
import { identifierList } from "@/lib/identity/schemas";
import { previewOutput, sendChannel } from "@/lib/templates/schemas";

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

export const messageState = z.enum(["queued", "sent", "skipped", "failed"]).meta({ id: "MessageState" });

export const listMessagesQuery = paginationQuery.extend({
  user_id: z.uuid().optional(),
  template_id: z.uuid().optional(),
  journey_id: z.uuid().optional(),
  broadcast_id: z.uuid().optional(),
  step: z.string().max(40).optional().meta({ description: "A journey's send step key (with `journey_id`)." }),
  state: messageState.optional(),
  event: z
    .enum(["delivered", "bounced", "complained", "opened", "opened_machine", "clicked", "unsubscribed", "converted"])
    .optional()
    .meta({ description: "Only the messages that did this: the messages behind a report's figure." }),
});

export const messageOutput = z
  .object({
    id: z.uuid(),
    channel: sendChannel,
    template: z.object({
      id: z.uuid(),
      name: z.string(),
      version_id: z.uuid().nullable().meta({ description: "The template version it renders (and rendered)." }),
      version: z.number().int().nullable(),
    }),
    user_id: z.uuid(),
    recipient: z.string().nullable().meta({ description: "The address or number it went to (once tried)." }),
    state: messageState,
    reason: z.string().nullable().meta({
      description:
        "Skipped: `no_contact`, `suppressed`, `unsubscribed`, `not_opted_in`, `channel_opted_out`, `frequency_cap`, `cancelled`. Failed: the provider's answer or the template's error. Queued: why it waits (`quiet_hours`, the last transient error).",
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
    delivery: z
      .object({
        state: z.enum(["delivered", "deferred", "bounced", "complained"]),
        type: z.enum(["hard", "soft"]).nullable().meta({ description: "Bounced: hard (permanent) or soft." }),
        code: z.string().nullable().meta({ description: "Bounced: the status code reported (`5.1.1`, `550`)." }),
        reason: z.string().nullable().meta({ description: "Bounced: the diagnostic the receiver gave." }),
        at: z.iso.datetime(),
      })
      .nullable()
      .meta({
        description:
          "What reports about the sent message said (docs/feedback.md): a later, weaker report (a `delivered` after a bounce) leaves a stronger one. null: no report yet.",
      }),
  })
  .meta({ id: "Message" });

export const messageEventOutput = z
  .object({
    kind: z.enum(["delivered", "deferred", "bounced", "complained"]),
    at: z.iso.datetime(),
    source: z.enum(["smtp", "sendgrid", "mailgun", "postmark", "ses", "twilio"]),
    detail: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "MessageEvent" });

export const messageDetailOutput = messageOutput
  .extend({
    content: previewOutput.nullable().meta({
      description:
        "The message rendered now from its template (as it would be sent today: a template changed since shows its new text); null when it no longer renders.",
    }),
    events: z.array(messageEventOutput).meta({
      description: "Each report about the message, oldest first (at most 100), each recorded once.",
    }),
  })
  .meta({ id: "MessageDetail" });

/** The longest `Idempotency-Key` header the send API takes. */
export const MAX_IDEMPOTENCY_KEY = 255;

/** `POST /api/client/…/messages`: one message of a template to one user, now or at `send_at`. */
export const sendMessageBody = z
  .strictObject({
    template_id: z.uuid().optional(),
    template: text(200)
      .min(1)
      .optional()
      .meta({ description: "The template by name (case-insensitive), instead of `template_id`." }),
    user_id: z.uuid().optional(),
    identifier: identifierList.optional().meta({ description: "The user by their identifiers, instead of `user_id`." }),
    data: dataObject("data")
      .optional()
      .meta({ description: "What the template sees as `data` (`{{ data.order_id }}`); at most 32 KiB serialized." }),
    to: z.string().trim().min(3).max(320).optional().meta({
      description:
        "An e-mail address (or E.164 number, for SMS) used instead of the user's. Transactional templates only (422 otherwise).",
    }),
    send_at: z.iso.datetime({ offset: true }).optional().meta({
      description:
        "Not before this time (default: now). A non-transactional template's quiet hours are read from then.",
    }),
  })
  .refine((b) => (b.template_id ? 1 : 0) + (b.template ? 1 : 0) === 1, "give exactly one of template_id and template")
  .refine((b) => (b.user_id ? 1 : 0) + (b.identifier ? 1 : 0) === 1, "give exactly one of user_id and identifier")
  .meta({ id: "SendMessage" });

export type SendMessageBody = z.output<typeof sendMessageBody>;

export const sentMessageOutput = z
  .object({
    id: z.uuid(),
    state: messageState.meta({
      description: "`queued` (it will be sent), or `skipped` when a rule decided at once (the log says why).",
    }),
  })
  .meta({ id: "SentMessage" });
