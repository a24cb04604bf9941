import { z } from "zod";
import { sendChannel } from "@/lib/templates/schemas";

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
