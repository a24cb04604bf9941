import { ApiError } from "@/components/console/api";
import type { Channel, Template, TemplateContent } from "@/components/messages/types";

/*
 * The template form's values and how they map to and from the API's template: the editor's state apart
 * from its rendering.
 */

export type Variant = { locale: string; subject: string; text: string; html: string };
export type Format = "html" | "mjml";
export type Values = {
  name: string;
  channel: Channel;
  format: Format;
  /** Comma-separated, as typed. */
  tags: string;
  transactional: boolean;
  group: string;
  variants: Variant[];
};

const variantOf = (locale: string, c: TemplateContent): Variant => ({
  locale,
  subject: c.subject ?? "",
  text: c.text ?? "",
  html: c.html ?? "",
});

export const toValues = (t?: Template): Values =>
  t
    ? {
        name: t.name,
        channel: t.channel,
        format: t.format ?? "html",
        tags: (t.tags ?? []).join(", "),
        transactional: t.transactional,
        group: t.subscription_group?.id ?? "",
        variants: [variantOf("", t), ...Object.entries(t.locales ?? {}).map(([l, c]) => variantOf(l, c))],
      }
    : {
        name: "",
        channel: "email",
        format: "html",
        tags: "",
        transactional: false,
        group: "",
        variants: [
          variantOf("", {
            subject: "Hello {{ user.data.first_name | default: 'there' }}",
            text: "Hi {{ user.data.first_name | default: 'there' }},\n\n…\n\nUnsubscribe: {{ unsubscribe_url }}",
            html: '<p>Hi {{ user.data.first_name | default: "there" }},</p>\n<p>…</p>\n<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
          }),
        ],
      };

/**
 * The API body: the default variant at the top, the others under `locales`; SMS has text only. The
 * channel is fixed once created, so an update does not send it.
 */
export function bodyOf(v: Values, update: boolean) {
  const content = (x: Variant) =>
    v.channel === "email" ? { subject: x.subject, text: x.text, html: x.html } : { text: x.text };
  const [main, ...rest] = v.variants;
  return {
    name: v.name,
    ...(update ? {} : { channel: v.channel }),
    ...content(main!),
    ...(v.channel === "email" ? { format: v.format } : {}),
    transactional: v.transactional,
    tags: v.tags
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
    subscription_group: v.transactional ? null : v.group || null,
    // A locale's part left empty is the default's (the API's rule): sent as absent, never as "", which
    // would blank the default's HTML for that locale (a variant made by the API with only a subject).
    locales: Object.fromEntries(
      rest.map((x) => [x.locale.trim(), Object.fromEntries(Object.entries(content(x)).filter(([, t]) => t !== ""))]),
    ),
  };
}

/** The server's per-field refusals (a Liquid syntax error names its line and column), by field path. */
export function fieldErrors(error: Error | null): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const errors = (error.body as { errors?: { path?: string; message?: string }[] } | null)?.errors ?? [];
  return Object.fromEntries(errors.filter((e) => e.path).map((e) => [e.path!, e.message ?? "invalid"]));
}
