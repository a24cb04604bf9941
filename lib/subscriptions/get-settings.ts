import { loadSettings } from "./settings";
import type { ProjectContext } from "@/lib/access/context";

export function smsWebhookPath(projectId: string): string {
  return `/api/webhooks/twilio/${projectId}/sms`;
}

/** The project's default policy and whether a Twilio token is configured (the token itself is never shown). */
export async function getSettings(ctx: ProjectContext, origin: string) {
  const s = await loadSettings(ctx);
  return {
    default_policy: s.defaultPolicy,
    twilio_auth_token_set: s.twilioAuthToken !== null,
    sms_webhook_url: origin + smsWebhookPath(ctx.projectId),
  };
}
