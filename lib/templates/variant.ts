import type { TemplateVariant } from "@/db/schema";

/**
 * The parts for a locale: the variant of the exact locale (`de-AT`), else of its language (`de`), else
 * the default; a part a variant leaves out is the default's. Locale keys compare case-insensitively.
 */
export function variantFor(
  t: { subject: string; text: string; html: string; locales: Record<string, TemplateVariant> },
  locale: string | null,
): { locale: string | null; subject: string; text: string; html: string } {
  const keys = Object.keys(t.locales);
  const find = (want: string) => keys.find((k) => k.toLowerCase() === want.toLowerCase());
  const key = locale ? (find(locale) ?? find(locale.split(/[-_]/)[0]!)) : undefined;
  const v = key ? t.locales[key]! : {};
  return {
    locale: key ?? null,
    subject: v.subject ?? t.subject,
    text: v.text ?? t.text,
    html: v.html ?? t.html,
  };
}
