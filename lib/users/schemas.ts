import { z } from "zod";
import { identifierList, identifierOutput } from "@/lib/identity/schemas";
import { dataObject, text } from "@/lib/http/json-value";
import { emailAddress } from "@/lib/http/email-address";
import { canonicalZone, isTimeZone } from "@/lib/time-zones/canonical-zone";

const E164 = /^\+[1-9]\d{6,14}$/;

function isLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** Omitted fields are left as they are; `null` clears them. */
export const userInput = z
  .strictObject({
    identifier: identifierList,
    email: emailAddress.nullable().optional(),
    phone: z.string().regex(E164, "must be an E.164 number like +14155550100").nullable().optional(),
    // Stored in its canonical spelling, so SQL (broadcasts' local time) and Intl (quiet hours, journeys) agree.
    timezone: text(64)
      .refine(isTimeZone, "must be an IANA time zone like Europe/Paris")
      .transform((tz) => canonicalZone(tz)!)
      .nullable()
      .optional(),
    locale: text(35).refine(isLocale, "must be a language tag like en or pt-BR").nullable().optional(),
    data: dataObject().optional(),
  })
  .meta({ id: "UserInput" });

export type UserInput = z.output<typeof userInput>;

export const MAX_BATCH = 1000;
export const userBatchInput = z.array(userInput).min(1).max(MAX_BATCH).meta({ id: "UserBatchInput" });

export const identifyInput = z.strictObject({ identifier: identifierList }).meta({ id: "IdentifyInput" });

export const userOutput = z
  .object({
    id: z.uuid(),
    identifier: z.array(identifierOutput),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    timezone: z.string().nullable(),
    locale: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "User" });

export type UserView = z.infer<typeof userOutput>;
