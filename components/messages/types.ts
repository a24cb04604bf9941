import type { z } from "zod";
import type { broadcastOutput } from "@/lib/broadcasts/schemas";
import type { messageDetailOutput, messageOutput } from "@/lib/messages/schemas";
import type { previewOutput, templateOutput, templateVariant } from "@/lib/templates/schemas";
import type { providerOutput } from "@/lib/providers/schemas";

/*
 * The messaging API's answers, typed from its own zod schemas (type-only imports: none reach the
 * browser bundle), so a changed response shape breaks the console's build, not its pages.
 */
export type Provider = z.output<typeof providerOutput>;
export type Template = z.output<typeof templateOutput>;
export type TemplateContent = z.output<typeof templateVariant>;
export type Channel = Template["channel"];
export type Message = z.output<typeof messageOutput>;
export type MessageState = Message["state"];
export type MessageDetail = z.output<typeof messageDetailOutput>;
export type Broadcast = z.output<typeof broadcastOutput>;
export type BroadcastState = Broadcast["state"];
/** What a preview answers; the messages log's content has the same shape. */
export type Rendered = Omit<z.output<typeof previewOutput>, "locale" | "subject"> & {
  locale?: string | null;
  subject: string | null;
};
