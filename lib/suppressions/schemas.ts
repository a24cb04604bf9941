import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
import { capWindow } from "@/lib/messages/schemas";

/** Addresses one POST may add. */
export const MAX_SUPPRESSIONS_PER_REQUEST = 10_000;
/** Enough for MAX_SUPPRESSIONS_PER_REQUEST addresses of the longest an e-mail address can be. */
export const SUPPRESSIONS_BODY_BYTES = 4 * 1024 * 1024;

/** The bounce policy when a project has none: 3 soft bounces of one address within 7 days. */
export const DEFAULT_BOUNCE_POLICY = { soft_bounces: 3, within: "7 days" } as const;

/** A project's `bounce_policy`: soft bounces of one address within a window that suppress it. */
export const bouncePolicy = z
  .strictObject({
    soft_bounces: z.number().int().min(1).max(100),
    within: capWindow,
  })
  .nullable()
  .meta({
    description: `Soft bounces of one address within \`within\` ("7 days") that suppress it (reason \`soft_bounces\`), counted over every message to it. null: ${DEFAULT_BOUNCE_POLICY.soft_bounces} within ${DEFAULT_BOUNCE_POLICY.within}.`,
  });

export const suppressionChannel = z.enum(["email", "sms"]);
export const suppressionReason = z
  .enum(["hard_bounce", "soft_bounces", "complaint", "carrier", "manual"])
  .meta({ id: "SuppressionReason" });

export const suppressionOutput = z
  .object({
    channel: suppressionChannel,
    address: z.string().meta({ description: "E-mail lower-cased; a number as sent." }),
    reason: suppressionReason.meta({
      description:
        "`hard_bounce`, `complaint`, `carrier` (an SMS carrier refused the number): added at once by the report; `soft_bounces`: the project's `bounce_policy` count was reached; `manual`: added through this API or the console.",
    }),
    source: z.string().meta({
      description: "Who added it: `smtp`, `sendgrid`, `mailgun`, `postmark`, `ses`, `twilio`, `api`, `console`.",
    }),
    message_id: z.uuid().nullable().meta({ description: "The message whose report caused it." }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Suppression" });

export const listSuppressionsQuery = paginationQuery.extend({
  channel: suppressionChannel.optional(),
  address: z
    .string()
    .trim()
    .min(1)
    .max(320)
    .optional()
    .meta({ description: "Addresses starting with this (case-insensitive for e-mail)." }),
});

const address = z.string().trim().min(1).max(320);

export const addSuppressionsBody = z
  .strictObject({
    channel: suppressionChannel.default("email"),
    addresses: z.array(address).min(1).max(MAX_SUPPRESSIONS_PER_REQUEST),
    reason: suppressionReason.default("manual").meta({
      description: "Kept with each address; `manual` unless carried over from another service's list.",
    }),
  })
  .meta({ id: "AddSuppressions" });

export const addSuppressionsOutput = z
  .object({
    added: z.number().int().meta({ description: "Addresses that were not on the list before." }),
    already: z.number().int().meta({ description: "Addresses already on it (kept with their first reason)." }),
  })
  .meta({ id: "AddedSuppressions" });

export const removeSuppressionQuery = z.strictObject({
  channel: suppressionChannel.default("email"),
  address,
});

export type SuppressionView = z.infer<typeof suppressionOutput>;
