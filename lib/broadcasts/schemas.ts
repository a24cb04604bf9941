import { z } from "zod";
import { goalSchema, testMetric } from "@/lib/reports/schemas";
import { paginationQuery } from "@/lib/http/pagination";
import { tagFilter, tagList } from "@/lib/http/tags";

export const broadcastState = z.enum(["scheduled", "sending", "done", "cancelled"]).meta({ id: "BroadcastState" });

export const variantsSchema = z
  .array(
    z.strictObject({
      template_id: z.uuid(),
      weight: z.number().int().min(1).max(10_000).default(1),
    }),
  )
  .min(2)
  .max(5)
  .refine((v) => new Set(v.map((x) => x.template_id)).size === v.length, "each template once")
  .meta({
    id: "BroadcastVariants",
    description:
      "An A/B test's templates (of the broadcast's template's channel), given to the test fraction by weight.",
  });

export const broadcastTestSchema = z
  .strictObject({
    fraction: z.number().gt(0).max(1).default(0.2).meta({
      description:
        "The share of recipients in the test (chosen by user id); the rest get the winner. 1: all in the test.",
    }),
    metric: testMetric.meta({
      description: "What decides: a conversion (the broadcast's `goal`), a click, or an open.",
    }),
    decide_after: z
      .string()
      .regex(/^[1-9][0-9]{0,3} (minute|hour|day)s?$/, 'like "4 hours"')
      .meta({ description: "After the start, the best variant so far (the highest chance to beat the others) wins." }),
  })
  .meta({ id: "BroadcastTest" });

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
  goal: goalSchema.nullable().default(null),
  variants: variantsSchema.nullable().default(null),
  test: broadcastTestSchema.nullable().default(null),
  tags: tagList.default([]),
};

const bothOrNeither = (b: { variants?: unknown; test?: unknown }) => (b.variants == null) === (b.test == null);
const testRule = { message: "`variants` and `test` go together", path: ["test"] };

export const createBroadcastBody = z
  .strictObject({
    ...broadcastFields,
    template_id: broadcastFields.template_id
      .optional()
      .meta({ description: "Required without `variants`; with them, default the first variant's." }),
    send_at: broadcastFields.send_at.optional().meta({ description: "Default: now." }),
  })
  .refine(bothOrNeither, testRule)
  .refine((b) => b.template_id || b.variants, { message: "a template or variants", path: ["template_id"] })
  .meta({ id: "CreateBroadcast" });

export const updateBroadcastBody = z
  .strictObject({
    name: broadcastFields.name.optional(),
    template_id: z.uuid().optional(),
    list_id: z.uuid().optional(),
    send_at: broadcastFields.send_at.optional(),
    in_user_timezone: z.boolean().optional(),
    rate_per_second: z.number().int().min(1).max(10_000).nullable().optional(),
    goal: goalSchema.nullable().optional(),
    variants: variantsSchema.nullable().optional(),
    test: broadcastTestSchema.nullable().optional(),
    tags: tagList.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "send at least one field to change")
  .refine((b) => (b.variants === undefined) === (b.test === undefined) && bothOrNeither(b), testRule)
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
    goal: goalSchema.nullable(),
    variants: z.array(z.object({ template_id: z.uuid(), weight: z.number().int() })).nullable(),
    test: broadcastTestSchema.nullable(),
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
