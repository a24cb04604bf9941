import type { z } from "zod";
import type { MessageProvider } from "@/db/schema";
import type { providerOutput } from "./schemas";
import { feedbackView } from "@/lib/feedback/feedback-settings";

export type ProviderView = z.infer<typeof providerOutput>;

/**
 * An SMTP URL with its password replaced by `****`. The user name stays (it says which account) unless it
 * is the password itself, as with Postmark, whose server token is both.
 */
export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username && u.username === u.password) u.username = "****";
    if (u.password) u.password = "****";
    return u.toString();
  } catch {
    return "****";
  }
}

export function toProviderView(p: MessageProvider): ProviderView {
  return {
    id: p.id,
    channel: p.channel,
    kind: p.kind,
    name: p.name,
    from: p.from,
    url: p.config.url ?? null,
    account_sid: p.config.account_sid ?? null,
    api_base: p.config.api_base ?? null,
    rate_per_second: p.ratePerSecond,
    dkim: p.config.dkim_domain
      ? { domain: p.config.dkim_domain, selector: p.config.dkim_selector ?? "", key_set: Boolean(p.config.dkim_key) }
      : null,
    feedback: feedbackView(p.config),
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}
