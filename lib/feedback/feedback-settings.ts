import { seal, unseal } from "@/lib/signing/seal";
import type { z } from "zod";
import type { feedbackInput } from "@/lib/providers/schemas";

export type FeedbackSettings = z.output<typeof feedbackInput>;

/**
 * A provider's `feedback` setting in its config: the service's kind in the clear (`feedback`), the whole
 * setting sealed (`feedback_sealed`), since signing keys and passwords are secrets.
 */
export function feedbackConfig(settings: FeedbackSettings | null): Record<string, string> {
  return settings ? { feedback: settings.kind, feedback_sealed: seal(JSON.stringify(settings)) } : {};
}

/** The provider's feedback setting (null: none, or it no longer unseals). */
export function feedbackSettings(config: Record<string, string>): FeedbackSettings | null {
  if (!config.feedback || !config.feedback_sealed) return null;
  const plain = unseal(config.feedback_sealed);
  try {
    return plain ? (JSON.parse(plain) as FeedbackSettings) : null;
  } catch {
    return null;
  }
}

/** What may be shown of it: the kind, and what is not secret (SendGrid's public key, Postmark's user name). */
export function feedbackView(config: Record<string, string>) {
  if (!config.feedback) return null;
  const s = feedbackSettings(config);
  return {
    kind: config.feedback as FeedbackSettings["kind"],
    ...(s?.kind === "sendgrid" ? { public_key: s.public_key } : {}),
    ...(s?.kind === "postmark" ? { username: s.username } : {}),
  };
}
