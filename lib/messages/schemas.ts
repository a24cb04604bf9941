import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
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
  state: messageState.optional(),
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
