import type { FeedbackSource, MessageEventKind } from "@/db/schema";

/** One report about one message, as a source read it. */
export interface FeedbackReport {
  messageId: string;
  kind: MessageEventKind;
  source: FeedbackSource;
  /**
   * What identifies this report at its source (a provider's event id; a DSN's recipient, action and
   * status): the same report delivered twice has the same key and is recorded once.
   */
  dedupeKey: string;
  at?: Date;
  /** The recipient the report names, when it names one (kept in the event's detail). */
  address?: string | null;
  bounce?: { type: "hard" | "soft"; code: string | null; reason: string | null };
  /** A carrier's refusal of the number (Twilio 21610, 30004–30006): suppresses at once. */
  carrier?: boolean;
  detail?: Record<string, unknown>;
}
