import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
import { tagFilter, tagList } from "@/lib/http/tags";

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
  tags: tagList.default([]),
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
    tags: tagList.optional(),
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
    tags: z.array(z.string()),
    pinned: z
      .object({ template_version_id: z.uuid().nullable(), snippets: z.record(z.string(), z.uuid()) })
      .nullable()
      .meta({
        description:
          "What every recipient renders, fixed when sending started: the template's version and the snippets' versions by name (null before).",
      }),
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

export const listBroadcastsQuery = paginationQuery.extend({ state: broadcastState.optional(), tag: tagFilter });
