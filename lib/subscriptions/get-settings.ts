import type { DbOrTx } from "@/db/client";
import { loadSettings } from "./settings";

export function smsWebhookPath(projectId: string): string {
  return `/api/webhooks/twilio/${projectId}/sms`;
}

/** The project's default policy and whether a Twilio token is configured (the token itself is never shown). */
export async function getSettings(db: DbOrTx, projectId: string, origin: string) {
  const s = await loadSettings(db, projectId);
  return { default_policy: s.defaultPolicy, twilio_auth_token_set: s.twilioAuthToken !== null, sms_webhook_url: origin + smsWebhookPath(projectId) };
}
