import type { TemplateVariant } from "@/db/schema";
import type { Format } from "./formats";

/** A template's fields as every save (new or changed) takes them: checked, built, then written. */
export interface TemplateFields {
  name: string;
  channel: "email" | "sms";
  format: Format;
  layoutId: string | null;
  subject: string;
  text: string;
  html: string;
  locales: Record<string, TemplateVariant>;
  transactional: boolean;
  group: string | null;
  tags: string[];
}
