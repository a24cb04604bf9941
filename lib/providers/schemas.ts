import { z } from "zod";
import { sendChannel } from "@/lib/templates/schemas";
import { sendgridKey } from "@/lib/feedback/email-webhook-sendgrid";

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
      "`smtp://user:pass@host:587` (STARTTLS when offered; `?tls=required` refuses to send without it, `?tls=none` never starts it) or `smtps://…:465`. Stored sealed; answered with the password masked (and the user name too when it is the password, as Postmark's server token is both). Its host gets the destinations' address checks (DESTINATIONS_ALLOW_HOSTS for private ones).",
  });
const apiBase = z.string().trim().max(2048).url().meta({
  description:
    "Twilio's API by default; another service speaking its Messages API (same address checks; `http://` only for a host DESTINATIONS_ALLOW_HOSTS lists).",
});

const dkimDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "a domain name such as example.com");
const dkimSelector = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "letters, digits and hyphens, up to 63");
export const dkimInput = z
  .strictObject({
    domain: dkimDomain.meta({ description: "The signing domain (`d=`), usually the From address's." }),
    selector: dkimSelector.meta({
      description: "The selector (`s=`): the key is published at `selector._domainkey.domain`.",
    }),
    private_key: z
      .string()
      .max(16_384)
      .meta({ description: "An RSA private key in PEM. Stored sealed; never answered." }),
  })
  .nullable()
  .meta({
    id: "DkimKeyInput",
    description:
      "Signs every e-mail of the provider (relaxed/relaxed). `null` removes the key. `POST …/dkim` makes one instead.",
  });

export const generateDkimBody = z
  .strictObject({ domain: dkimDomain, selector: dkimSelector })
  .meta({ id: "GenerateDkimKey", description: "The domain and selector of the key to make." });

export const dkimRecordOutput = z
  .object({
    domain: z.string(),
    selector: z.string(),
    record: z.object({
      name: z.string().meta({ description: "`selector._domainkey.domain`" }),
      type: z.literal("TXT"),
      value: z.string().meta({ description: "`v=DKIM1; k=rsa; p=…`: the public key to publish." }),
    }),
  })
  .meta({ id: "DkimRecord", description: "The DNS record to publish before mail signed with the new key can verify." });

const secret = z.string().min(1).max(512);
export const feedbackInput = z
  .discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("sendgrid"),
      public_key: z
        .string()
        .trim()
        .min(40)
        .max(1024)
        .refine((k) => {
          try {
            sendgridKey(k);
            return true;
          } catch {
            return false;
          }
        }, "SendGrid's verification key: base64 DER of a P-256 public key")
        .meta({ description: "The Event Webhook's verification key, as SendGrid shows it (base64)." }),
    }),
    z.strictObject({ kind: z.literal("mailgun"), signing_key: secret.meta({ description: "Never answered." }) }),
    z.strictObject({
      kind: z.literal("postmark"),
      username: z.string().min(1).max(256),
      password: secret.meta({ description: "Never answered." }),
    }),
    z.strictObject({ kind: z.literal("ses") }),
  ])
  .meta({
    id: "ProviderFeedback",
    description:
      "The service whose delivery webhook posts to `/api/webhooks/email/{providerID}`, and how its posts are verified. Stored sealed.",
  });

export const createProviderBody = z
  .discriminatedUnion("kind", [
    z.strictObject({
      channel: z.literal("email"),
      kind: z.literal("smtp"),
      name: providerName,
      url: smtpUrl,
      from: fromAddress.meta({ description: '"Name <address>" the messages are from.' }),
      rate_per_second: ratePerSecond.optional(),
      dkim: dkimInput.optional(),
      feedback: feedbackInput.nullable().optional(),
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
    dkim: dkimInput.optional(),
    feedback: feedbackInput.nullable().optional().meta({ description: "SMTP only; null removes it." }),
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
    dkim: z
      .object({ domain: z.string(), selector: z.string(), key_set: z.boolean() })
      .nullable()
      .meta({ description: "E-mail: the DKIM signing domain and selector; the private key is never answered." }),
    feedback: z
      .object({
        kind: z.enum(["sendgrid", "mailgun", "postmark", "ses"]),
        public_key: z.string().optional(),
        username: z.string().optional(),
      })
      .nullable()
      .meta({ description: "The delivery webhook's service; its secrets are never answered." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Provider", description: "A provider as answered: never its password or auth token." });
