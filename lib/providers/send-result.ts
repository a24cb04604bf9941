/** What one attempt at a provider came to: accepted (with its id), worth retrying, or refused for good. */
export type SendResult =
  | { ok: true; providerMessageId: string | null }
  | { ok: false; transient: boolean; reason: string }
  /** The message's broadcast was cancelled while it waited for a send slot: nothing was sent. */
  | { ok: false; cancelled: true };
