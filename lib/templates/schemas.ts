import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
import { dataObject } from "@/lib/http/json-value";
import { identifierList } from "@/lib/identity/schemas";
import { tagFilter, tagList } from "@/lib/http/tags";
import { MAX_TEMPLATE_CHARS } from "./liquid";

export const sendChannel = z.enum(["email", "sms"]).meta({ id: "SendChannel" });
export const contentFormat = z.enum(["html", "mjml"]).meta({
  id: "ContentFormat",
  description:
    "`html`: Liquid over HTML, its `<style>` blocks inlined when saved. `mjml`: MJML with Liquid in it, compiled to HTML when saved (an invalid document is a 400 naming the line).",
});
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
  format: contentFormat.default("html"),
  layout_id: z.uuid().nullable().optional().meta({
    description:
      "The layout around `html` (of the same format); null or absent: the project's default layout when it is of the template's format.",
  }),
  tags: tagList.default([]),
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
    format: contentFormat.optional(),
    layout_id: templateFields.layout_id,
    tags: tagList.optional(),
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
    format: contentFormat,
    layout_id: z.uuid().nullable(),
    tags: z.array(z.string()),
    version: z.number().int().meta({ description: "The number of the current version (1 for a new template)." }),
    version_id: z.uuid().nullable(),
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
    locale: localeKey.nullable().optional().meta({
      description:
        "Render this locale's variant (null: the default one) as if it were the user's locale; without it, the user's own.",
    }),
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

export const listTemplatesQuery = paginationQuery.extend({ channel: sendChannel.optional(), tag: tagFilter });

const layoutBodyText = z.string().min(1).max(MAX_TEMPLATE_CHARS);

export const createLayoutBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    format: contentFormat.default("html"),
    body: layoutBodyText.meta({
      description:
        "The html (or MJML) around a template, with exactly one `{{ content }}` where the template's html goes.",
    }),
  })
  .meta({ id: "CreateLayout" });

export const updateLayoutBody = z
  .strictObject({ name: createLayoutBody.shape.name.optional(), body: layoutBodyText.optional() })
  .refine((b) => Object.keys(b).length > 0, "send at least one field to change")
  .meta({ id: "UpdateLayout", description: "The format is fixed: its templates are of that format." });

export const layoutOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    format: contentFormat,
    body: z.string(),
    version: z.number().int(),
    version_id: z.uuid().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Layout" });

export const SNIPPET_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const createSnippetBody = z
  .strictObject({
    name: z
      .string()
      .regex(SNIPPET_NAME, "lower-case letters, digits, `-` and `_`, at most 64")
      .meta({ description: "What templates render it by: `{% render 'footer' %}`." }),
    body: z
      .string()
      .max(MAX_TEMPLATE_CHARS)
      .meta({ description: "Liquid; it sees only the variables passed to `render`." }),
  })
  .meta({ id: "CreateSnippet" });

export const updateSnippetBody = z
  .strictObject({ name: createSnippetBody.shape.name.optional(), body: createSnippetBody.shape.body.optional() })
  .refine((b) => Object.keys(b).length > 0, "send at least one field to change")
  .meta({ id: "UpdateSnippet" });

export const snippetOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    body: z.string(),
    version: z.number().int(),
    version_id: z.uuid().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Snippet" });

export const versionOutput = z
  .object({
    id: z.uuid(),
    number: z.number().int(),
    content: z
      .record(z.string(), z.unknown())
      .meta({ description: "What was saved: the fields of a template, layout or snippet." }),
    actor: z.string().nullable().meta({ description: "Who saved it: `admin:<id>`, `key:<id>` or `system`." }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "AuthoringVersion" });

export const listAuthoringQuery = paginationQuery;
