import { z } from "zod";
import { messageSettings } from "@/lib/messages/schemas";
import { bouncePolicy } from "@/lib/suppressions/schemas";

/** Longest retention that can be set: a hundred years (null keeps events forever). */
export const MAX_RETENTION_DAYS = 36_500;

export const projectSettingsOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    event_retention_days: z.number().int().nullable().meta({
      description:
        "Days events are kept, by their time (the client's `timestamp`, else the receipt); null keeps them forever. Expired events are removed within the worker's RETENTION_INTERVAL (default 1h).",
    }),
    frequency_cap: messageSettings.frequency_cap,
    quiet_hours: messageSettings.quiet_hours,
    bounce_policy: bouncePolicy,
    default_layout_id: z.uuid().nullable().meta({
      description: "The layout around e-mail templates that name none (those of its format).",
    }),
    document_quota_bytes: z.number().int().meta({ description: "Bytes of documents (images) the project may hold." }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "ProjectSettings" });

export const projectSettingsPatch = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    event_retention_days: z
      .number()
      .int()
      .min(1)
      .max(MAX_RETENTION_DAYS)
      .nullable()
      .optional()
      .meta({
        description: `1 to ${MAX_RETENTION_DAYS} days, or null to keep events forever. Refused (400) while a dynamic list looks further back than the new retention.`,
      }),
    frequency_cap: messageSettings.frequency_cap.optional(),
    quiet_hours: messageSettings.quiet_hours.optional(),
    bounce_policy: bouncePolicy.optional(),
    default_layout_id: z.uuid().nullable().optional().meta({
      description:
        "Every template without a layout of its own is built again with it; refused (400) if one would break, naming it.",
    }),
    document_quota_bytes: z
      .number()
      .int()
      .min(0)
      .max(100 * 1024 ** 3)
      .nullable()
      .optional()
      .meta({ description: "null: the deployment's DOCUMENTS_QUOTA_BYTES (100 MB by default)." }),
  })
  .strict()
  .meta({ id: "ProjectSettingsPatch" });

export type ProjectSettings = z.infer<typeof projectSettingsOutput>;
export type ProjectSettingsPatch = z.infer<typeof projectSettingsPatch>;
